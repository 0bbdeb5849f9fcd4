(define (problem p0056)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b3 b4)
    (clear b3)
    (ontable b5)
    (on b1 b5)
    (on b2 b1)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b2 b1)
    (on b4 b5)
  ))
)
