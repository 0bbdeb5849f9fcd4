(define (problem p0051)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (clear b6)
    (ontable b1)
    (on b4 b1)
    (on b3 b4)
    (clear b3)
    (ontable b2)
    (clear b2)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b6 b2)
    (on b3 b4)
  ))
)
