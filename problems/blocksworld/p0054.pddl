(define (problem p0054)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b5 b2)
    (on b4 b5)
    (on b3 b4)
    (clear b3)
    (ontable b1)
    (clear b1)
    (ontable b6)
    (clear b6)
    (handempty)
  )
  (:goal (and
    (on b4 b6)
    (on b5 b2)
    (on b1 b5)
  ))
)
