(define (problem p0025)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b3 b2)
    (on b1 b3)
    (clear b1)
    (ontable b5)
    (clear b5)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b3 b2)
    (on b4 b3)
    (on b1 b4)
    (on b5 b1)
  ))
)
