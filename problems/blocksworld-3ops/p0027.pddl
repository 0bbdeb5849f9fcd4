(define (problem p0027)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b2 b3)
    (on b4 b2)
    (on b5 b4)
    (clear b5)
    (ontable b1)
    (clear b1)
  )
  (:goal (and
    (on b3 b4)
    (on b5 b3)
    (on b2 b5)
    (on b1 b2)
  ))
)
