(define (problem p0096)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (clear b4)
    (ontable b6)
    (on b3 b6)
    (on b2 b3)
    (clear b2)
    (ontable b1)
    (clear b1)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b3 b2)
    (on b1 b3)
    (on b4 b1)
  ))
)
