(define (problem p0023)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b6 b3)
    (clear b6)
    (ontable b4)
    (on b2 b4)
    (clear b2)
    (ontable b1)
    (on b5 b1)
    (clear b5)
  )
  (:goal (and
    (on b3 b6)
    (on b1 b3)
    (on b4 b1)
    (on b5 b4)
  ))
)
