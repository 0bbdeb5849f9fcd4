(define (problem p0077)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (clear b4)
    (ontable b3)
    (on b5 b3)
    (clear b5)
    (ontable b2)
    (on b1 b2)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b2 b4)
    (on b1 b2)
    (on b5 b3)
  ))
)
