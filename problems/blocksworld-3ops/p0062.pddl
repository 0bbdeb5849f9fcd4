(define (problem p0062)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b5 b4)
    (on b1 b5)
    (clear b1)
    (ontable b3)
    (clear b3)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b5 b3)
    (on b1 b5)
    (on b4 b1)
  ))
)
