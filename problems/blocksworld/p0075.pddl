(define (problem p0075)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b5 b1)
    (on b4 b5)
    (on b3 b4)
    (on b2 b3)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b5 b1)
    (on b3 b2)
  ))
)
