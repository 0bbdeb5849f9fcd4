(define (problem p0099)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b3 b4)
    (on b1 b3)
    (on b2 b1)
    (on b5 b2)
    (clear b5)
  )
  (:goal (and
    (on b4 b2)
    (on b1 b4)
    (on b3 b1)
    (on b5 b3)
  ))
)
