(define (problem p0084)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 spanner3 - spanner
    nut1 - nut
    shed location1 location2 gate - location
  )
  (:init
    (at bob shed)
    (link shed location1)
    (link location1 location2)
    (link location2 gate)
    (at spanner1 location1)
    (at spanner2 location2)
    (at spanner3 location2)
    (useable spanner3)
    (at nut1 gate)
    (loose nut1)
  )
  (:goal (tightened nut1))
)
