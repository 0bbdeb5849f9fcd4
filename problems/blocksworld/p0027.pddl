(define (problem p0027)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b6 b4)
    (clear b6)
    (ontable b1)
    (on b3 b1)
    (on b2 b3)
    (on b5 b2)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b2 b1)
    (on b5 b2)
    (on b3 b6)
  ))
)
