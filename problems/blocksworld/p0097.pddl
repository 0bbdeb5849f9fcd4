(define (problem p0097)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b2 b3)
    (on b4 b2)
    (on b5 b4)
    (on b1 b5)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b4 b3)
    (on b2 b4)
    (on b1 b2)
  ))
)
