(define (problem p0055)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b6 b3)
    (on b4 b6)
    (on b1 b4)
    (on b5 b1)
    (clear b5)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b3 b6)
    (on b4 b3)
  ))
)
