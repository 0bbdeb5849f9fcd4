(define (problem p0097)
  (:domain elevator)
  (:objects
    p1 p2 p3 - passenger
    f1 f2 f3 f4 - floor
  )
  (:init
    (above f2 f1)
    (above f3 f1)
    (above f3 f2)
    (above f4 f1)
    (above f4 f2)
    (above f4 f3)
    (origin p1 f4)
    (destin p1 f2)
    (origin p2 f3)
    (destin p2 f2)
    (origin p3 f1)
    (destin p3 f4)
    (lift-at f3)
  )
  (:goal (and
    (served p1)
    (served p2)
    (served p3)
  ))
)
