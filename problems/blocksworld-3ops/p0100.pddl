(define (problem p0100)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b2)
    (clear b2)
    (ontable b5)
    (clear b5)
    (ontable b1)
    (on b3 b1)
    (clear b3)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b4 b2)
    (on b3 b1)
    (on b5 b3)
  ))
)
