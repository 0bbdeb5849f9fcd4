(define (problem p0045)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b6 b4)
    (on b3 b6)
    (on b5 b3)
    (on b1 b5)
    (clear b1)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b4 b1)
    (on b2 b4)
    (on b5 b2)
    (on b6 b3)
  ))
)
