(define (problem p0029)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b5 b3)
    (clear b5)
    (ontable b4)
    (clear b4)
    (ontable b1)
    (on b2 b1)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b3 b4)
    (on b5 b3)
    (on b1 b5)
    (on b2 b1)
  ))
)
