(define (problem p0023)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b2 b6)
    (clear b2)
    (ontable b5)
    (on b1 b5)
    (on b4 b1)
    (clear b4)
    (ontable b3)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b4 b2)
    (on b1 b4)
    (on b3 b6)
    (on b5 b3)
  ))
)
