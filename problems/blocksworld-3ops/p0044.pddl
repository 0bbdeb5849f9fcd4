(define (problem p0044)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b6)
    (on b2 b6)
    (on b4 b2)
    (on b3 b4)
    (on b5 b3)
    (clear b5)
    (ontable b1)
    (on b7 b1)
    (clear b7)
  )
  (:goal (and
    (on b3 b4)
    (on b7 b3)
    (on b5 b7)
  ))
)
