(define (problem p0030)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (clear b3)
    (ontable b6)
    (on b4 b6)
    (on b2 b4)
    (clear b2)
    (ontable b1)
    (on b5 b1)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b6 b5)
    (on b1 b6)
    (on b3 b4)
    (on b2 b3)
  ))
)
