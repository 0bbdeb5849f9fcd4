(define (problem p0009)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b1)
    (clear b1)
    (ontable b2)
    (clear b2)
    (ontable b4)
    (on b3 b4)
    (clear b3)
  )
  (:goal (and
    (on b4 b5)
    (on b3 b4)
  ))
)
