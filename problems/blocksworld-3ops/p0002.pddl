(define (problem p0002)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b5)
    (on b1 b5)
    (on b3 b1)
    (clear b3)
    (ontable b2)
    (clear b2)
    (ontable b4)
    (clear b4)
  )
  (:goal (and
    (on b1 b4)
    (on b2 b1)
    (on b3 b2)
    (on b5 b3)
  ))
)
