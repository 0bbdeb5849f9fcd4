(define (problem p0079)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b3 b2)
    (clear b3)
    (ontable b5)
    (clear b5)
    (ontable b4)
    (clear b4)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b1 b2)
    (on b4 b1)
  ))
)
