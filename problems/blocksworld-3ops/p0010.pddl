(define (problem p0010)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b5 b4)
    (on b3 b5)
    (on b2 b3)
    (on b1 b2)
    (clear b1)
  )
  (:goal (and
    (on b3 b1)
    (on b2 b3)
    (on b4 b2)
    (on b5 b4)
  ))
)
