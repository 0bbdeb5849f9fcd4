(define (problem p0092)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (clear b3)
    (ontable b4)
    (on b5 b4)
    (on b2 b5)
    (clear b2)
    (ontable b1)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b2 b5)
    (on b3 b2)
  ))
)
