(define (problem p0028)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b6)
    (on b4 b6)
    (on b3 b4)
    (on b1 b3)
    (clear b1)
    (ontable b2)
    (clear b2)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b3 b6)
    (on b5 b3)
    (on b4 b5)
    (on b2 b4)
  ))
)
