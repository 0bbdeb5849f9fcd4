(define (problem p0088)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b3 b1)
    (clear b3)
    (ontable b6)
    (on b5 b6)
    (on b2 b5)
    (clear b2)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b1 b2)
    (on b4 b1)
    (on b6 b3)
  ))
)
