(define (problem p0034)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 - block
  )
  (:init
    (ontable b4)
    (on b5 b4)
    (on b2 b5)
    (clear b2)
    (ontable b1)
    (on b3 b1)
    (clear b3)
  )
  (:goal (and
    (ontable b4)
    (ontable b2)
    (ontable b1)
    (ontable b3)
    (ontable b5)
  ))
)
