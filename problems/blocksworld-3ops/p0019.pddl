(define (problem p0019)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b1 b2)
    (clear b1)
    (ontable b6)
    (on b5 b6)
    (on b3 b5)
    (clear b3)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b5 b4)
    (on b2 b5)
    (on b1 b2)
  ))
)
