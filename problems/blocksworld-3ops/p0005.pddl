(define (problem p0005)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b5 b1)
    (clear b5)
    (ontable b2)
    (on b6 b2)
    (on b3 b6)
    (clear b3)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b4 b1)
    (on b2 b4)
    (on b5 b3)
  ))
)
