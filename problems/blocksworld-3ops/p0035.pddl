(define (problem p0035)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b6 b2)
    (on b1 b6)
    (on b4 b1)
    (on b5 b4)
    (clear b5)
    (ontable b3)
    (clear b3)
  )
  (:goal (and
    (on b5 b1)
    (on b4 b5)
    (on b6 b4)
  ))
)
