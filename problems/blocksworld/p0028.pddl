(define (problem p0028)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b6 b2)
    (on b1 b6)
    (on b4 b1)
    (on b5 b4)
    (on b3 b5)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b1 b5)
    (on b2 b1)
    (on b6 b2)
    (on b3 b6)
    (on b4 b3)
  ))
)
