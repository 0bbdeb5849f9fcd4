(define (problem p0099)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b3)
    (on b5 b3)
    (clear b5)
    (ontable b2)
    (on b4 b2)
    (clear b4)
    (ontable b1)
    (on b6 b1)
    (clear b6)
    (handempty)
  )
  (:goal (and
    (on b4 b5)
    (on b1 b4)
    (on b2 b3)
  ))
)
