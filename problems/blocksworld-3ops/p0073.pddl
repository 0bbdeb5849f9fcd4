(define (problem p0073)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b1 b2)
    (clear b1)
    (ontable b5)
    (on b4 b5)
    (clear b4)
    (ontable b3)
    (clear b3)
  )
  (:goal (and
    (on b3 b1)
    (on b2 b3)
    (on b5 b2)
  ))
)
