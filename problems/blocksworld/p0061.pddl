(define (problem p0061)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b2)
    (on b1 b2)
    (on b6 b1)
    (on b4 b6)
    (clear b4)
    (ontable b3)
    (clear b3)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b2 b3)
    (on b4 b1)
    (on b5 b4)
  ))
)
