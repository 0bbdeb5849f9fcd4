(define (problem p0094)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b3 b1)
    (on b2 b3)
    (clear b2)
    (ontable b4)
    (clear b4)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b5 b2)
    (on b4 b5)
    (on b1 b4)
    (on b3 b1)
  ))
)
