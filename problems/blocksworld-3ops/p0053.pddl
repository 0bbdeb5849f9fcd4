(define (problem p0053)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b4 b2)
    (clear b4)
    (ontable b3)
    (on b5 b3)
    (clear b5)
    (ontable b1)
    (clear b1)
  )
  (:goal (and
    (on b2 b3)
    (on b1 b2)
  ))
)
