(define (problem p0058)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b5 b3)
    (on b1 b5)
    (on b6 b1)
    (clear b6)
    (ontable b4)
    (clear b4)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b6 b3)
    (on b4 b6)
    (on b1 b5)
  ))
)
