(define (problem p0010)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b4 b1)
    (on b5 b4)
    (clear b5)
    (ontable b3)
    (on b2 b3)
    (clear b2)
    (handempty)
  )
  (:goal (and
    (on b4 b5)
    (on b2 b4)
  ))
)
