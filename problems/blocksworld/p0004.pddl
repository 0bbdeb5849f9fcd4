(define (problem p0004)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b2 b5)
    (on b1 b2)
    (on b4 b1)
    (clear b4)
    (ontable b3)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b3 b4)
    (on b2 b3)
  ))
)
