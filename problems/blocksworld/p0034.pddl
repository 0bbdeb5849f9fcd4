(define (problem p0034)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b3 b2)
    (clear b3)
    (ontable b4)
    (on b5 b4)
    (clear b5)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b2 b3)
    (on b4 b2)
    (on b5 b4)
    (on b1 b5)
  ))
)
