(define (problem p0048)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (clear b6)
    (ontable b5)
    (on b2 b5)
    (on b1 b2)
    (clear b1)
    (ontable b4)
    (on b3 b4)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b2 b6)
    (on b3 b2)
    (on b1 b4)
  ))
)
