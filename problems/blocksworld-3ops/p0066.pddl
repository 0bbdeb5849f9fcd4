(define (problem p0066)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b5)
    (on b6 b5)
    (on b4 b6)
    (on b2 b4)
    (on b1 b2)
    (clear b1)
    (ontable b7)
    (on b3 b7)
    (clear b3)
  )
  (:goal (and
    (on b7 b6)
    (on b3 b2)
  ))
)
