(define (problem p0059)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b5 b3)
    (on b1 b5)
    (clear b1)
    (ontable b4)
    (clear b4)
    (ontable b2)
    (on b6 b2)
    (clear b6)
    (handempty)
  )
  (:goal (and
    (on b6 b5)
    (on b3 b6)
    (on b2 b3)
    (on b4 b1)
  ))
)
