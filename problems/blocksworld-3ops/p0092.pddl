(define (problem p0092)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b3 b2)
    (on b5 b3)
    (on b1 b5)
    (on b4 b1)
    (clear b4)
  )
  (:goal (and
    (on b4 b1)
    (on b2 b4)
  ))
)
