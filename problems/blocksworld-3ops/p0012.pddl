(define (problem p0012)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (clear b4)
    (ontable b2)
    (on b5 b2)
    (on b3 b5)
    (clear b3)
    (ontable b1)
    (clear b1)
    (ontable b6)
    (clear b6)
  )
  (:goal (and
    (on b5 b2)
    (on b3 b5)
    (on b6 b3)
    (on b1 b6)
  ))
)
