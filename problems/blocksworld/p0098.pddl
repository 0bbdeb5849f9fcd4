(define (problem p0098)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b1 b3)
    (clear b1)
    (ontable b5)
    (on b2 b5)
    (on b4 b2)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b3 b1)
    (on b4 b3)
    (on b2 b4)
    (on b5 b2)
  ))
)
