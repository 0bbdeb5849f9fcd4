(define (problem p0016)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b3 b5)
    (on b6 b3)
    (on b2 b6)
    (clear b2)
    (ontable b4)
    (clear b4)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b5 b1)
    (on b6 b2)
  ))
)
