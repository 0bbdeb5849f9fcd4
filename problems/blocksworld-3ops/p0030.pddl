(define (problem p0030)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b4 b3)
    (on b2 b4)
    (on b5 b2)
    (on b6 b5)
    (clear b6)
    (ontable b1)
    (clear b1)
  )
  (:goal (and
    (on b2 b1)
    (on b4 b2)
    (on b6 b4)
    (on b5 b3)
  ))
)
