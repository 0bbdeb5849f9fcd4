(define (problem p0073)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b4 b3)
    (clear b4)
    (ontable b6)
    (on b1 b6)
    (on b5 b1)
    (clear b5)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b3 b2)
    (on b4 b5)
  ))
)
