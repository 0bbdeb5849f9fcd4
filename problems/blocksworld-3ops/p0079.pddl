(define (problem p0079)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b6)
    (on b4 b6)
    (on b3 b4)
    (clear b3)
    (ontable b2)
    (clear b2)
    (ontable b1)
    (clear b1)
  )
  (:goal (on b1 b6))
)
