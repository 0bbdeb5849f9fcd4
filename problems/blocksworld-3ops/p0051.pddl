(define (problem p0051)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b2)
    (on b5 b2)
    (on b3 b5)
    (on b1 b3)
    (clear b1)
    (ontable b6)
    (clear b6)
    (ontable b7)
    (clear b7)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b2 b1)
    (on b5 b2)
    (on b4 b3)
  ))
)
