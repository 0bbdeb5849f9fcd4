(define (problem p0086)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b1 b4)
    (clear b1)
    (ontable b3)
    (on b5 b3)
    (clear b5)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b1 b5)
    (on b2 b1)
  ))
)
