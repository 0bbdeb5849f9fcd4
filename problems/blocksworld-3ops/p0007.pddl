(define (problem p0007)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b3)
    (on b4 b3)
    (on b1 b4)
    (on b7 b1)
    (on b2 b7)
    (clear b2)
    (ontable b5)
    (on b6 b5)
    (clear b6)
  )
  (:goal (and
    (on b1 b6)
    (on b7 b1)
    (on b4 b7)
    (on b5 b4)
    (on b2 b3)
  ))
)
