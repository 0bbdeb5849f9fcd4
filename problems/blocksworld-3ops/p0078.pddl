(define (problem p0078)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b1)
    (on b2 b1)
    (on b4 b2)
    (on b3 b4)
    (on b6 b3)
    (clear b6)
    (ontable b7)
    (on b5 b7)
    (clear b5)
  )
  (:goal (and
    (on b4 b1)
    (on b6 b4)
    (on b3 b2)
  ))
)
