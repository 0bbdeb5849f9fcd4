(define (problem p0093)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (clear b5)
    (ontable b4)
    (on b2 b4)
    (on b3 b2)
    (on b1 b3)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b3 b1)
    (on b5 b3)
    (on b2 b5)
  ))
)
