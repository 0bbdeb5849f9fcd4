(define (problem p0093)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b3 b6)
    (on b2 b3)
    (on b5 b2)
    (clear b5)
    (ontable b4)
    (clear b4)
    (ontable b1)
    (clear b1)
  )
  (:goal (and
    (on b3 b6)
    (on b1 b2)
  ))
)
