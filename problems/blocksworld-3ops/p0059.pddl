(define (problem p0059)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b1 b2)
    (on b5 b1)
    (on b7 b5)
    (on b3 b7)
    (on b6 b3)
    (clear b6)
  )
  (:goal (and
    (on b6 b5)
    (on b7 b2)
  ))
)
