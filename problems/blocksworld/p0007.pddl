(define (problem p0007)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b2 b6)
    (on b4 b2)
    (on b3 b4)
    (on b1 b3)
    (on b5 b1)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b3 b2)
    (on b6 b3)
    (on b4 b5)
    (on b1 b4)
  ))
)
