(define (problem p0069)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b3 b4)
    (clear b3)
    (ontable b1)
    (on b6 b1)
    (clear b6)
    (ontable b5)
    (on b2 b5)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b2 b1)
    (on b3 b2)
    (on b5 b4)
  ))
)
