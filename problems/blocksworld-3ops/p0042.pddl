(define (problem p0042)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b4 b2)
    (on b1 b4)
    (clear b1)
    (ontable b3)
    (on b5 b3)
    (clear b5)
  )
  (:goal (and
    (on b2 b5)
    (on b1 b2)
  ))
)
