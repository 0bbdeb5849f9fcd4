(define (problem p0049)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b2 b3)
    (clear b2)
    (ontable b1)
    (on b4 b1)
    (clear b4)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b5 b3)
    (on b1 b4)
  ))
)
