(define (problem p0050)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b3 b1)
    (on b4 b3)
    (on b5 b4)
    (clear b5)
    (ontable b6)
    (clear b6)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b3 b5)
    (on b2 b3)
    (on b1 b2)
    (on b4 b1)
  ))
)
