(define (problem p0037)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b3 b2)
    (on b4 b3)
    (on b1 b4)
    (clear b1)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b4 b3)
    (on b5 b4)
    (on b2 b5)
    (on b1 b2)
  ))
)
