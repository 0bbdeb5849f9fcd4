(define (problem p0088)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b1 b5)
    (clear b1)
    (ontable b2)
    (clear b2)
    (ontable b3)
    (clear b3)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b4 b1)
    (on b5 b4)
  ))
)
