(define (problem p0045)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b3 b4)
    (on b5 b3)
    (on b1 b5)
    (clear b1)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b4 b5)
    (on b3 b4)
    (on b2 b3)
  ))
)
