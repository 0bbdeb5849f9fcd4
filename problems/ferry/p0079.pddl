(define (problem p0079)
  (:domain ferry)
  (:objects
    car1 car2 car3 - car
    loc1 loc2 loc3 loc4 - location
  )
  (:init
    (at-ferry loc4)
    (empty-ferry)
    (at car1 loc4)
    (at car2 loc2)
    (at car3 loc1)
  )
  (:goal (and
    (at car1 loc1)
    (at car2 loc1)
    (at car3 loc3)
  ))
)
