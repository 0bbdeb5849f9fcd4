(define (problem p0046)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b4 b6)
    (on b5 b4)
    (on b3 b5)
    (on b1 b3)
    (on b2 b1)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b6 b1)
    (on b3 b6)
    (on b2 b3)
    (on b5 b4)
  ))
)
