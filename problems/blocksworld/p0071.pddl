(define (problem p0071)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (clear b2)
    (ontable b3)
    (clear b3)
    (ontable b4)
    (clear b4)
    (ontable b5)
    (on b1 b5)
    (clear b1)
    (handempty)
  )
  (:goal (on b4 b1))
)
