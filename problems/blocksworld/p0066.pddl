(define (problem p0066)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b2 b4)
    (clear b2)
    (ontable b5)
    (clear b5)
    (ontable b3)
    (clear b3)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b2 b5)
    (on b3 b4)
    (on b1 b3)
  ))
)
