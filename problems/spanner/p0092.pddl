(define (problem p0092)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 spanner3 spanner4 - spanner
    nut1 nut2 - nut
    shed location1 location2 location3 gate - location
  )
  (:init
    (at bob shed)
    (link shed location1)
    (link location1 location2)
    (link location2 location3)
    (link location3 gate)
    (at spanner1 location2)
    (useable spanner1)
    (at spanner2 location1)
    (at spanner3 location3)
    (useable spanner3)
    (at spanner4 location3)
    (useable spanner4)
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
