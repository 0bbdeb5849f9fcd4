(define (problem p0049)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 spanner3 spanner4 - spanner
    nut1 nut2 - nut
    shed location1 gate - location
  )
  (:init
    (at bob shed)
    (link shed location1)
    (link location1 gate)
    (at spanner1 location1)
    (useable spanner1)
    (at spanner2 location1)
    (at spanner3 location1)
    (useable spanner3)
    (at spanner4 location1)
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
