(define (problem p0044)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (clear b2)
    (ontable b1)
    (clear b1)
    (ontable b3)
    (clear b3)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b4 b2)
    (on b3 b4)
  ))
)
