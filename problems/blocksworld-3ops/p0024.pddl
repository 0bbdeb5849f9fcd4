(define (problem p0024)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b5 b3)
    (clear b5)
    (ontable b2)
    (on b1 b2)
    (clear b1)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b4 b1)
    (on b3 b4)
    (on b2 b3)
  ))
)
