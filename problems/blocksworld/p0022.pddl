(define (problem p0022)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b4 b5)
    (on b2 b4)
    (clear b2)
    (ontable b3)
    (on b1 b3)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (ontable b2)
    (ontable b1)
    (ontable b4)
    (ontable b5)
    (ontable b3)
  ))
)
