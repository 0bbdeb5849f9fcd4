(define (problem p0091)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (clear b3)
    (ontable b1)
    (clear b1)
    (ontable b4)
    (clear b4)
    (ontable b5)
    (on b2 b5)
    (clear b2)
    (ontable b6)
    (clear b6)
    (handempty)
  )
  (:goal (and
    (on b6 b2)
    (on b4 b6)
  ))
)
