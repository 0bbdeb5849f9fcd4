(define (problem p0055)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b4 b6)
    (on b3 b4)
    (clear b3)
    (ontable b5)
    (on b1 b5)
    (clear b1)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b5 b2)
    (on b1 b6)
    (on b4 b1)
    (on b3 b4)
  ))
)
