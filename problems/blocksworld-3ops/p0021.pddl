(define (problem p0021)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b1 b4)
    (on b6 b1)
    (clear b6)
    (ontable b2)
    (on b3 b2)
    (clear b3)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b4 b5)
    (on b6 b4)
    (on b1 b3)
  ))
)
