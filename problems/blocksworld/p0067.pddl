(define (problem p0067)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (on b4 b3)
    (clear b4)
    (ontable b5)
    (clear b5)
    (ontable b2)
    (clear b2)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b5 b2)
    (on b4 b5)
    (on b3 b4)
  ))
)
