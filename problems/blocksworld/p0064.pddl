(define (problem p0064)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b4 b5)
    (on b6 b4)
    (clear b6)
    (ontable b3)
    (clear b3)
    (ontable b2)
    (clear b2)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b2 b6)
    (on b1 b2)
    (on b3 b1)
  ))
)
