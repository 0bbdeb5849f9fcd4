(define (problem p0078)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b2 b6)
    (clear b2)
    (ontable b5)
    (clear b5)
    (ontable b1)
    (clear b1)
    (ontable b4)
    (on b3 b4)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b6 b4)
    (on b3 b2)
  ))
)
