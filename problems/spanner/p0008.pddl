(define (problem p0008)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 spanner3 - spanner
    nut1 - nut
    shed location1 gate - location
  )
  (:init
    (at bob shed)
    (link shed location1)
    (link location1 gate)
    (at spanner1 location1)
    (at spanner2 location1)
    (useable spanner2)
    (at spanner3 location1)
    (at nut1 gate)
    (loose nut1)
  )
  (:goal (tightened nut1))
)
