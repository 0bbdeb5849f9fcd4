(define (problem p0015)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b5)
    (on b2 b5)
    (clear b2)
    (ontable b4)
    (on b7 b4)
    (clear b7)
    (ontable b6)
    (clear b6)
    (ontable b1)
    (clear b1)
    (ontable b3)
    (clear b3)
  )
  (:goal (and
    (on b5 b1)
    (on b6 b5)
  ))
)
