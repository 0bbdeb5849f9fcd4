(define (problem p0094)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (clear b1)
    (ontable b5)
    (clear b5)
    (ontable b4)
    (clear b4)
    (ontable b2)
    (on b3 b2)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b5 b1)
    (on b3 b5)
    (on b4 b3)
    (on b2 b4)
  ))
)
