(define (problem p0032)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b3 b1)
    (on b5 b3)
    (on b2 b5)
    (on b4 b2)
    (clear b4)
    (ontable b6)
    (clear b6)
  )
  (:goal (and
    (on b2 b4)
    (on b6 b2)
    (on b5 b6)
    (on b1 b5)
  ))
)
