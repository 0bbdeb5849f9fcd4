(define (problem p0009)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b1 b2)
    (on b5 b1)
    (on b3 b5)
    (clear b3)
    (ontable b4)
    (on b6 b4)
    (clear b6)
    (handempty)
  )
  (:goal (and
    (on b3 b5)
    (on b1 b3)
    (on b2 b4)
  ))
)
