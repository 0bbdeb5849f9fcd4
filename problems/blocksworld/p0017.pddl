(define (problem p0017)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b4 b6)
    (on b3 b4)
    (clear b3)
    (ontable b2)
    (on b5 b2)
    (on b1 b5)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b5 b4)
    (on b1 b5)
    (on b2 b1)
    (on b6 b2)
    (on b3 b6)
  ))
)
