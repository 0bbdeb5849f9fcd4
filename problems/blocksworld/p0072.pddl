(define (problem p0072)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (clear b3)
    (ontable b1)
    (on b2 b1)
    (on b4 b2)
    (clear b4)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b3 b2)
    (on b4 b3)
    (on b1 b4)
  ))
)
