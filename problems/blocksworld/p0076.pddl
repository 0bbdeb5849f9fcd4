(define (problem p0076)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b1 b2)
    (clear b1)
    (ontable b6)
    (clear b6)
    (ontable b3)
    (on b5 b3)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b3 b4)
    (on b2 b3)
  ))
)
