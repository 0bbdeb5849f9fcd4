(define (problem p0050)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b3 b1)
    (on b2 b3)
    (on b5 b2)
    (on b4 b5)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b2 b4)
    (on b3 b2)
    (on b5 b3)
    (on b1 b5)
  ))
)
