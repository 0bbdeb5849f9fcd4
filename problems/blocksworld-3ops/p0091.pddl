(define (problem p0091)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b4 b5)
    (on b1 b4)
    (on b6 b1)
    (on b3 b6)
    (on b2 b3)
    (clear b2)
  )
  (:goal (and
    (on b6 b3)
    (on b5 b6)
    (on b1 b5)
    (on b4 b1)
    (on b2 b4)
  ))
)
