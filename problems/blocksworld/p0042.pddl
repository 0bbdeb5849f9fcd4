(define (problem p0042)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b2 b3)
    (on b5 b2)
    (on b1 b5)
    (clear b1)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (on b1 b4))
)
