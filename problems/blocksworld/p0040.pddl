(define (problem p0040)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b2 b3)
    (on b5 b2)
    (clear b5)
    (ontable b4)
    (clear b4)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b5 b2)
    (on b3 b1)
    (on b4 b3)
  ))
)
