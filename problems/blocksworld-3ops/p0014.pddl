(define (problem p0014)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b1 b2)
    (on b3 b1)
    (clear b3)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (ontable b3)
    (ontable b2)
    (ontable b4)
    (ontable b1)
    (ontable b5)
  ))
)
