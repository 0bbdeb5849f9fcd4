(define (problem p0087)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b6 b5)
    (on b3 b6)
    (on b2 b3)
    (on b1 b2)
    (clear b1)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b5 b6)
    (on b4 b5)
    (on b1 b4)
    (on b3 b1)
  ))
)
