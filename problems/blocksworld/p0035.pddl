(define (problem p0035)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b6 b3)
    (clear b6)
    (ontable b2)
    (on b1 b2)
    (on b4 b1)
    (on b5 b4)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b1 b2)
    (on b3 b1)
    (on b6 b5)
  ))
)
