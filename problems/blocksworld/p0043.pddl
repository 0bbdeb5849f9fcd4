(define (problem p0043)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b4 b5)
    (on b2 b4)
    (on b3 b2)
    (clear b3)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (on b1 b5))
)
