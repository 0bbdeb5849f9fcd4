(define (problem p0063)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b4)
    (clear b4)
    (ontable b6)
    (on b5 b6)
    (on b1 b5)
    (clear b1)
    (ontable b3)
    (on b7 b3)
    (clear b7)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b4 b1)
    (on b6 b4)
  ))
)
