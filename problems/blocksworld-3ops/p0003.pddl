(define (problem p0003)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b5)
    (on b7 b5)
    (on b2 b7)
    (on b4 b2)
    (clear b4)
    (ontable b3)
    (on b1 b3)
    (on b6 b1)
    (clear b6)
  )
  (:goal (and
    (on b7 b6)
    (on b2 b7)
    (on b5 b1)
    (on b4 b3)
  ))
)
