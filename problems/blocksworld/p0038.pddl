(define (problem p0038)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b4 b2)
    (clear b4)
    (ontable b1)
    (on b5 b1)
    (on b6 b5)
    (clear b6)
    (ontable b3)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b2 b4)
    (on b3 b2)
    (on b1 b3)
    (on b6 b5)
  ))
)
