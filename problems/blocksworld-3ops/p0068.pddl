(define (problem p0068)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b1 b3)
    (clear b1)
    (ontable b5)
    (on b2 b5)
    (on b4 b2)
    (on b6 b4)
    (clear b6)
  )
  (:goal (and
    (on b1 b5)
    (on b2 b1)
    (on b3 b2)
  ))
)
