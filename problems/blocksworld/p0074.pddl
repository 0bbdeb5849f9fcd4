(define (problem p0074)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b5 b6)
    (clear b5)
    (ontable b2)
    (clear b2)
    (ontable b4)
    (clear b4)
    (ontable b1)
    (on b3 b1)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b3 b1)
    (on b6 b2)
  ))
)
