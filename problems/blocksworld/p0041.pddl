(define (problem p0041)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b6 b5)
    (on b2 b6)
    (on b3 b2)
    (clear b3)
    (ontable b4)
    (clear b4)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b4 b5)
    (on b3 b4)
    (on b6 b1)
  ))
)
