(define (problem p0085)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b1 b6)
    (on b5 b1)
    (on b3 b5)
    (on b2 b3)
    (on b4 b2)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b3 b1)
    (on b6 b5)
  ))
)
