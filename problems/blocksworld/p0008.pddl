(define (problem p0008)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b1)
    (on b4 b1)
    (clear b4)
    (ontable b2)
    (clear b2)
    (ontable b3)
    (clear b3)
    (handempty)
  )
  (:goal (on b1 b5))
)
