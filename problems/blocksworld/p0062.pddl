(define (problem p0062)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b1 b4)
    (clear b1)
    (ontable b5)
    (clear b5)
    (ontable b3)
    (clear b3)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b5 b4)
    (on b1 b2)
  ))
)
