(define (problem p0031)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b3 b6)
    (clear b3)
    (ontable b1)
    (on b4 b1)
    (on b2 b4)
    (clear b2)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b4 b2)
    (on b6 b4)
    (on b5 b6)
    (on b1 b5)
  ))
)
