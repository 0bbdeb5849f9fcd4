(define (problem p0015)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b2)
    (on b1 b2)
    (clear b1)
    (ontable b4)
    (clear b4)
    (ontable b3)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b3 b5)
    (on b1 b3)
    (on b4 b1)
    (on b2 b4)
  ))
)
