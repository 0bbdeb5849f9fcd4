(define (problem p0085)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 b7 - block
  )
  (:init
    (ontable b6)
    (on b3 b6)
    (on b1 b3)
    (on b5 b1)
    (clear b5)
    (ontable b4)
    (on b7 b4)
    (on b2 b7)
    (clear b2)
  )
  (:goal (and
    (on b7 b1)
    (on b4 b7)
    (on b3 b4)
  ))
)
