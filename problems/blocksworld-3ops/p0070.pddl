(define (problem p0070)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b1 b2)
    (on b5 b1)
    (clear b5)
    (ontable b3)
    (clear b3)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b3 b5)
    (on b4 b3)
    (on b1 b4)
    (on b2 b1)
  ))
)
