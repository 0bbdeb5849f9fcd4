(define (problem p0020)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b5 b1)
    (clear b5)
    (ontable b4)
    (on b3 b4)
    (on b2 b3)
    (clear b2)
  )
  (:goal (and
    (on b4 b3)
    (on b5 b1)
  ))
)
