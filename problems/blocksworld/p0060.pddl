(define (problem p0060)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b1 b6)
    (on b2 b1)
    (clear b2)
    (ontable b3)
    (on b4 b3)
    (clear b4)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b5 b3)
    (on b1 b5)
  ))
)
