(define (problem p0002)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b3)
    (on b4 b3)
    (clear b4)
    (ontable b1)
    (clear b1)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b3 b4)
    (on b2 b3)
  ))
)
