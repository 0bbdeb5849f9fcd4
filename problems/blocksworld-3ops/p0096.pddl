(define (problem p0096)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b2 b1)
    (on b5 b2)
    (on b3 b5)
    (clear b3)
    (ontable b6)
    (clear b6)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b4 b5)
    (on b3 b4)
    (on b6 b3)
    (on b1 b6)
    (on b2 b1)
  ))
)
