(define (problem p0014)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b5 b2)
    (on b3 b5)
    (on b6 b3)
    (clear b6)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b6 b3)
    (on b4 b6)
    (on b5 b2)
  ))
)
