(define (problem p0060)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b4 b5)
    (on b3 b4)
    (clear b3)
    (ontable b2)
    (clear b2)
    (ontable b1)
    (clear b1)
  )
  (:goal (and
    (on b1 b4)
    (on b5 b1)
    (on b2 b5)
    (on b3 b2)
  ))
)
