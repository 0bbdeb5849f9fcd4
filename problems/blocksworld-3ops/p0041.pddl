(define (problem p0041)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b1 b2)
    (clear b1)
    (ontable b3)
    (on b5 b3)
    (clear b5)
  )
  (:goal (and
    (on b1 b2)
    (on b3 b1)
    (on b4 b3)
    (on b5 b4)
  ))
)
