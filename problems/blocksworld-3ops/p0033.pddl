(define (problem p0033)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b3 b4)
    (on b1 b3)
    (on b2 b1)
    (on b6 b2)
    (clear b6)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b6 b1)
    (on b2 b6)
    (on b4 b2)
    (on b3 b4)
  ))
)
