(define (problem p0047)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (on b1 b2)
    (on b3 b1)
    (on b4 b3)
    (on b5 b4)
    (clear b5)
    (handempty)
  )
  (:goal (and
    (on b4 b2)
    (on b5 b3)
  ))
)
