(define (problem p0047)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b3 b4)
    (on b2 b3)
    (on b1 b2)
    (clear b1)
    (ontable b5)
    (clear b5)
  )
  (:goal (and
    (on b3 b4)
    (on b1 b5)
  ))
)
