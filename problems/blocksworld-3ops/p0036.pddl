(define (problem p0036)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b1 b2)
    (on b4 b1)
    (on b3 b4)
    (clear b3)
    (ontable b6)
    (clear b6)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b6 b4)
    (on b5 b6)
    (on b2 b5)
    (on b1 b2)
  ))
)
