(define (problem p0065)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b2 b1)
    (clear b2)
    (ontable b5)
    (clear b5)
    (ontable b4)
    (clear b4)
    (ontable b3)
    (clear b3)
  )
  (:goal (and
    (on b1 b2)
    (on b3 b1)
    (on b5 b3)
    (on b4 b5)
  ))
)
