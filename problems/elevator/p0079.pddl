(define (problem p0079)
  (:domain elevator)
  (:objects
    p1 p2 p3 - passenger
    f1 f2 f3 - floor
  )
  (:init
    (above f2 f1)
    (above f3 f1)
    (above f3 f2)
    (origin p1 f3)
    (destin p1 f1)
    (origin p2 f2)
    (destin p2 f3)
    (origin p3 f3)
    (destin p3 f1)
    (lift-at f2)
  )
  (:goal (and
    (served p1)
    (served p2)
    (served p3)
  ))
)
