(define (problem p0052)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b1 b6)
    (on b3 b1)
    (on b2 b3)
    (clear b2)
    (ontable b4)
    (clear b4)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b1 b5)
    (on b3 b1)
    (on b6 b3)
    (on b4 b6)
  ))
)
