(define (problem p0008)
  (:domain ferry)
  (:objects
    car1 car2 car3 - car
    loc1 loc2 - location
  )
  (:init
    (at-ferry loc1)
    (empty-ferry)
    (at car1 loc2)
    (at car2 loc2)
    (at car3 loc1)
  )
  (:goal (and
    (at car1 loc1)
    (at car2 loc1)
    (at car3 loc2)
  ))
)
