(define (problem p0016)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b3)
    (on b2 b3)
    (on b1 b2)
    (clear b1)
    (ontable b4)
    (on b5 b4)
    (on b6 b5)
    (on b7 b6)
    (clear b7)
  )
  (:goal (and
    (on b2 b3)
    (on b4 b2)
  ))
)
