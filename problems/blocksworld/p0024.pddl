(define (problem p0024)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b4 b2)
    (on b1 b4)
    (on b5 b1)
    (on b3 b5)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b2 b5)
  ))
)
