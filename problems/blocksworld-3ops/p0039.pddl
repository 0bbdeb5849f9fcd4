(define (problem p0039)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b3)
    (on b7 b3)
    (on b6 b7)
    (on b4 b6)
    (on b1 b4)
    (on b5 b1)
    (clear b5)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b6 b2)
    (on b3 b6)
    (on b1 b3)
    (on b7 b1)
    (on b5 b4)
  ))
)
