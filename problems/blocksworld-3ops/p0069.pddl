(define (problem p0069)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b1)
    (on b2 b1)
    (clear b2)
    (ontable b3)
    (on b4 b3)
    (clear b4)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b3 b4)
    (on b2 b3)
    (on b1 b2)
    (on b5 b1)
  ))
)
