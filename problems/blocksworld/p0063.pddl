(define (problem p0063)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (clear b4)
    (ontable b2)
    (on b1 b2)
    (clear b1)
    (ontable b5)
    (on b3 b5)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b2 b1)
    (on b5 b2)
  ))
)
