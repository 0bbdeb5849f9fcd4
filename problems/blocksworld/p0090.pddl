(define (problem p0090)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b5)
    (on b4 b5)
    (on b3 b4)
    (on b6 b3)
    (clear b6)
    (ontable b1)
    (on b2 b1)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b3 b1)
    (on b5 b3)
    (on b2 b5)
  ))
)
