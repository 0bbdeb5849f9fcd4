(define (problem p0029)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b5)
    (on b1 b5)
    (on b3 b1)
    (on b2 b3)
    (clear b2)
    (ontable b6)
    (on b7 b6)
    (clear b7)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b7 b5)
    (on b2 b3)
    (on b4 b2)
    (on b6 b1)
  ))
)
