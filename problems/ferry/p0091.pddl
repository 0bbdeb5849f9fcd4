(define (problem p0091)
  (:domain ferry)
  (:objects
    car1 car2 - car
    loc1 loc2 loc3 loc4 - location
  )
  (:init
    (at-ferry loc3)
    (empty-ferry)
    (at car1 loc3)
    (at car2 loc3)
  )
  (:goal (and
    (at car1 loc4)
    (at car2 loc4)
  ))
)
