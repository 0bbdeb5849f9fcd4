(define (problem p0065)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b1 b5)
    (clear b1)
    (ontable b3)
    (clear b3)
    (ontable b4)
    (on b2 b4)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b5 b1)
    (on b3 b5)
    (on b2 b3)
  ))
)
