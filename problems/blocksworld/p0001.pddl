(define (problem p0001)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b5 b4)
    (on b1 b5)
    (on b2 b1)
    (on b6 b2)
    (on b3 b6)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b4 b5)
    (on b6 b4)
    (on b2 b3)
    (on b1 b2)
  ))
)
