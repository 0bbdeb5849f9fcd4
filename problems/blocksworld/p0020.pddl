(define (problem p0020)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b6 b3)
    (on b4 b6)
    (clear b4)
    (ontable b5)
    (on b2 b5)
    (on b1 b2)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b1 b6)
    (on b3 b1)
    (on b4 b3)
    (on b2 b4)
  ))
)
