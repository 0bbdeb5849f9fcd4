(define (problem p0046)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b3)
    (on b6 b3)
    (on b1 b6)
    (clear b1)
    (ontable b2)
    (on b4 b2)
    (on b7 b4)
    (clear b7)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b2 b5)
    (on b7 b2)
    (on b4 b7)
  ))
)
