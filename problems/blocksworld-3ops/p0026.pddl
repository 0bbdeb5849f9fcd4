(define (problem p0026)
  (:domain blocksworld-3ops)
  (:objects
    b1 b2 b3 b4 b5 b6 - block
  )
  (:init
    (ontable b1)
    (on b6 b1)
    (clear b6)
    (ontable b5)
    (clear b5)
    (ontable b4)
    (on b3 b4)
    (clear b3)
    (ontable b2)
    (clear b2)
  )
  (:goal (and
    (on b6 b5)
    (on b3 b6)
    (on b2 b4)
    (on b1 b2)
  ))
)
