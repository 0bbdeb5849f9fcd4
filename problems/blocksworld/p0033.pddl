(define (problem p0033)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b5 b2)
    (clear b5)
    (ontable b3)
    (clear b3)
    (ontable b6)
    (on b1 b6)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b3 b1)
    (on b5 b3)
  ))
)
