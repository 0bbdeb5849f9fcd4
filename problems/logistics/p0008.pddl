(define (problem p0008)
  (:domain logistics)
  (:objects
    package1 - package
    truck1 truck2 - truck
    plane1 - airplane
    city1 city2 - city
    airport1 airport2 - airport
    place1 place2 - location
  )
  (:init
    (in-city airport1 city1)
    (in-city place1 city1)
    (in-city airport2 city2)
    (in-city place2 city2)
    (at truck1 airport1)
    (at truck2 place2)
    (at plane1 airport1)
    (at package1 place2)
  )
  (:goal (at package1 airport1))
)
