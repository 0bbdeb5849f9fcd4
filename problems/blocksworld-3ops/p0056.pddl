(define (problem p0056)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b4)
    (on b6 b4)
    (on b1 b6)
    (clear b1)
    (ontable b2)
    (on b3 b2)
    (clear b3)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b1 b6)
    (on b4 b3)
    (on b2 b4)
    (on b5 b2)
  ))
)
