(define (problem p0054)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b4)
    (on b5 b4)
    (on b6 b5)
    (on b2 b6)
    (clear b2)
    (ontable b7)
    (on b3 b7)
    (clear b3)
    (ontable b1)
    (clear b1)
  )
  (:goal (and
    (on b6 b5)
    (on b3 b2)
    (on b4 b3)
    (on b7 b4)
  ))
)
