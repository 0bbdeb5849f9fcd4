(define (problem p0016)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 spanner3 - spanner
    nut1 nut2 - nut
    shed location1 location2 gate - location
  )
  (:init
    (at bob shed)
    (link shed location1)
    (link location1 location2)
    (link location2 gate)
    (at spanner1 location2)
    (at spanner2 location2)
    (useable spanner2)
    (at spanner3 location2)
    (useable spanner3)
    (at nut1 gate)
    (loose nut1)
    (at nut2 gate)
    (loose nut2)
  )
  (:goal (and
    (tightened nut1)
    (tightened nut2)
  ))
)
