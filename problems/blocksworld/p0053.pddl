(define (problem p0053)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b2 b1)
    (on b6 b2)
    (on b4 b6)
    (on b3 b4)
    (clear b3)
    (ontable b5)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b1 b2)
    (on b6 b1)
    (on b5 b6)
    (on b4 b5)
  ))
)
