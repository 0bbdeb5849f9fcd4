(define (problem p0048)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b3)
    (on b1 b3)
    (on b4 b1)
    (on b7 b4)
    (clear b7)
    (ontable b5)
    (clear b5)
    (ontable b2)
    (on b6 b2)
    (clear b6)
  )
  (:goal (and
    (on b3 b1)
    (on b5 b3)
    (on b7 b4)
  ))
)
