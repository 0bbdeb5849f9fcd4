(define (problem p0082)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b3 b2)
    (on b1 b3)
    (on b5 b1)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b4 b2)
    (on b5 b4)
    (on b1 b5)
  ))
)
