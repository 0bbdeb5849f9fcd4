(define (problem p0025)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b2 b3)
    (on b1 b2)
    (clear b1)
    (ontable b5)
    (clear b5)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b4 b3)
    (on b2 b4)
    (on b5 b1)
  ))
)
