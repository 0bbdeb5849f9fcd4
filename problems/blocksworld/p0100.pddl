(define (problem p0100)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b1 b5)
    (on b2 b1)
    (clear b2)
    (ontable b3)
    (on b4 b3)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b1 b3)
    (on b4 b2)
    (on b5 b4)
  ))
)
