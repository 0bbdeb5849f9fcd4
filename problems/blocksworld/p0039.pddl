(define (problem p0039)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b3 b4)
    (on b1 b3)
    (clear b1)
    (ontable b2)
    (clear b2)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b2 b5)
    (on b3 b2)
    (on b1 b3)
  ))
)
