(define (problem p0006)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (clear b2)
    (ontable b3)
    (clear b3)
    (ontable b5)
    (on b1 b5)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b5 b3)
    (on b1 b5)
  ))
)
