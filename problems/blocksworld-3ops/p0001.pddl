(define (problem p0001)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b5 b1)
    (on b4 b5)
    (on b3 b4)
    (clear b3)
    (ontable b6)
    (clear b6)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b5 b1)
    (on b4 b3)
  ))
)
