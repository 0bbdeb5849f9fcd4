(define (problem p0082)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b3)
    (on b1 b3)
    (on b4 b1)
    (on b2 b4)
    (clear b2)
  )
  (:goal (and
    (on b5 b1)
    (on b2 b5)
    (on b3 b4)
  ))
)
