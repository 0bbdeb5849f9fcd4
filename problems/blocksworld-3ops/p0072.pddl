(define (problem p0072)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b4 b2)
    (on b1 b4)
    (on b5 b1)
    (on b3 b5)
    (clear b3)
  )
  (:goal (and
    (on b2 b1)
    (on b4 b2)
    (on b3 b4)
  ))
)
