(define (problem p0087)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b2)
    (on b7 b2)
    (on b4 b7)
    (on b6 b4)
    (clear b6)
    (ontable b3)
    (on b1 b3)
    (clear b1)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b7 b6)
    (on b5 b7)
    (on b1 b2)
    (on b3 b4)
  ))
)
