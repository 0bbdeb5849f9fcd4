(define (problem p0089)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b1 b5)
    (clear b1)
    (ontable b2)
    (on b4 b2)
    (on b3 b4)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b2 b5)
    (on b1 b2)
    (on b3 b1)
  ))
)
