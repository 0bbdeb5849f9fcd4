(define (problem p0075)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b2 b1)
    (clear b2)
    (ontable b4)
    (on b5 b4)
    (on b3 b5)
    (clear b3)
  )
  (:goal (and
    (on b5 b2)
    (on b1 b5)
    (on b4 b1)
  ))
)
