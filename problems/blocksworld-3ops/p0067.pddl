(define (problem p0067)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b3 b5)
    (clear b3)
    (ontable b6)
    (on b4 b6)
    (clear b4)
    (ontable b2)
    (clear b2)
    (ontable b1)
    (clear b1)
  )
  (:goal (and
    (on b5 b1)
    (on b6 b5)
    (on b3 b6)
    (on b2 b3)
  ))
)
