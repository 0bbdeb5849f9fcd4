(define (problem p0059)
  (:domain ferry)
  (:objects
    car1 car2 - car
    loc1 loc2 loc3 - location
  )
  (:init
    (at-ferry loc2)
    (empty-ferry)
    (at car1 loc1)
    (at car2 loc3)
  )
  (:goal (and
    (at car1 loc2)
    (at car2 loc2)
  ))
)
