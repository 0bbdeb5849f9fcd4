(define (problem p0018)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b3 b1)
    (on b5 b3)
    (on b4 b5)
    (clear b4)
    (ontable b2)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b4 b3)
    (on b5 b4)
    (on b2 b5)
  ))
)
