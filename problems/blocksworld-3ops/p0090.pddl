(define (problem p0090)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b6 b4)
    (on b2 b6)
    (clear b2)
    (ontable b3)
    (clear b3)
    (ontable b5)
    (on b1 b5)
    (clear b1)
  )
  (:goal (and
    (on b3 b6)
    (on b1 b2)
    (on b5 b4)
  ))
)
