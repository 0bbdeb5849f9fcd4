(define (problem p0058)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b4 b1)
    (clear b4)
    (ontable b5)
    (clear b5)
    (ontable b2)
    (clear b2)
    (ontable b3)
    (clear b3)
  )
  (:goal (and
    (on b1 b3)
    (on b4 b2)
    (on b5 b4)
  ))
)
