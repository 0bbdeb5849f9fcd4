(define (problem p0084)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (clear b3)
    (ontable b2)
    (on b1 b2)
    (on b5 b1)
    (on b4 b5)
    (clear b4)
    (handempty)
  )
  (:goal (and
    (on b5 b1)
    (on b3 b5)
    (on b2 b3)
  ))
)
