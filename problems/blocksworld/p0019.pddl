(define (problem p0019)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b1 b3)
    (on b5 b1)
    (on b2 b5)
    (clear b2)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (on b3 b5))
)
