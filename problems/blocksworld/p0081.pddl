(define (problem p0081)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b4 b1)
    (clear b4)
    (ontable b3)
    (on b2 b3)
    (clear b2)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b2 b4)
    (on b1 b2)
    (on b3 b1)
    (on b5 b3)
  ))
)
