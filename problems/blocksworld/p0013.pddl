(define (problem p0013)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b2 b1)
    (on b5 b2)
    (on b3 b5)
    (clear b3)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b4 b1)
    (on b2 b5)
  ))
)
