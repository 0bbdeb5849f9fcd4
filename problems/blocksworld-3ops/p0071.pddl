(define (problem p0071)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b1)
    (on b6 b1)
    (on b7 b6)
    (on b3 b7)
    (on b2 b3)
    (on b4 b2)
    (clear b4)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b3 b5)
    (on b4 b1)
    (on b6 b4)
  ))
)
