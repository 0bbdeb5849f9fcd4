(define (problem p0003)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b6 b3)
    (on b5 b6)
    (on b1 b5)
    (on b2 b1)
    (clear b2)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b1 b2)
    (on b3 b1)
  ))
)
