(define (problem p0043)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b2 b5)
    (clear b2)
    (ontable b3)
    (on b4 b3)
    (clear b4)
    (ontable b1)
    (clear b1)
    (ontable b6)
    (clear b6)
  )
  (:goal (and
    (on b2 b3)
    (on b4 b2)
  ))
)
