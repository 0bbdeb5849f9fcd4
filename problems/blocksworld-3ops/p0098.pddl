(define (problem p0098)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b1)
    (on b2 b1)
    (on b6 b2)
    (on b4 b6)
    (on b3 b4)
    (clear b3)
  )
  (:goal (and
    (on b3 b5)
    (on b1 b4)
  ))
)
