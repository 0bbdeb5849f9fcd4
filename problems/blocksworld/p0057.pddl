(define (problem p0057)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b5 b2)
    (clear b5)
    (ontable b3)
    (on b1 b3)
    (on b6 b1)
    (clear b6)
    (ontable b4)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b5 b2)
    (on b3 b5)
    (on b6 b3)
    (on b4 b1)
  ))
)
