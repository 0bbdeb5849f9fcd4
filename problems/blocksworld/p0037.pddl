(define (problem p0037)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (on b6 b2)
    (on b5 b6)
    (clear b5)
    (ontable b3)
    (on b1 b3)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b4 b3)
    (on b2 b4)
    (on b1 b2)
    (on b6 b1)
    (on b5 b6)
  ))
)
