(define (problem p0010)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 - spanner
    nut1 - nut
    shed location1 location2 gate - location
  )
  (:init
    (at bob shed)
    (link shed location1)
    (link location1 location2)
    (link location2 gate)
    (at spanner1 location2)
    (useable spanner1)
    (at nut1 gate)
    (loose nut1)
  )
  (:goal (tightened nut1))
)
