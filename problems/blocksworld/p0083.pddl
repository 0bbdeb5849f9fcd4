(define (problem p0083)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b1 b5)
    (on b4 b1)
    (clear b4)
    (ontable b2)
    (clear b2)
    (ontable b3)
    (clear b3)
    (handempty)
  )
  (:goal (and
    (on b2 b5)
    (on b3 b2)
    (on b1 b3)
  ))
)
