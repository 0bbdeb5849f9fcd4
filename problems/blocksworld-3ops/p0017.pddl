(define (problem p0017)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b6 b3)
    (on b5 b6)
    (clear b5)
    (ontable b2)
    (on b4 b2)
    (on b1 b4)
    (clear b1)
  )
  (:goal (and
    (on b4 b2)
    (on b6 b4)
    (on b3 b6)
    (on b5 b3)
  ))
)
