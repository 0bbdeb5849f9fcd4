(define (problem p0028)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 spanner3 spanner4 spanner5 - spanner
    nut1 nut2 nut3 - nut
    shed location1 location2 location3 location4 gate - location
  )
  (:init
    (at bob shed)
    (link shed location1)
    (link location1 location2)
    (link location2 location3)
    (link location3 location4)
    (link location4 gate)
    (at spanner1 location2)
    (useable spanner1)
    (at spanner2 location4)
    (useable spanner2)
    (at spanner3 location2)
    (at spanner4 location1)
    (useable spanner4)
    (at spanner5 location4)
    (at nut1 gate)
    (loose nut1)
    (at nut2 gate)
    (loose nut2)
    (at nut3 gate)
    (loose nut3)
  )
  (:goal (and
    (tightened nut1)
    (tightened nut2)
    (tightened nut3)
  ))
)
