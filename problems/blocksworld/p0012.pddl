(define (problem p0012)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b3)
    (clear b3)
    (ontable b2)
    (on b5 b2)
    (clear b5)
    (ontable b4)
    (on b1 b4)
    (clear b1)
    (handempty)
  )
  (:goal (and
    (on b2 b3)
    (on b1 b2)
    (on b5 b4)
  ))
)
