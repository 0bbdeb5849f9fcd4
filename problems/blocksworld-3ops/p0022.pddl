(define (problem p0022)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b5 b2)
    (on b4 b5)
    (on b1 b4)
    (clear b1)
    (ontable b6)
    (clear b6)
    (ontable b3)
    (clear b3)
  )
  (:goal (and
    (on b6 b1)
    (on b5 b3)
    (on b4 b5)
  ))
)
