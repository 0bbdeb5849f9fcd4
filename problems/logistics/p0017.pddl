(define (problem p0017)
  (:domain logistics)
  (:objects
    package1 - package
    truck1 truck2 truck3 - truck
    plane1 - airplane
    city1 city2 city3 - city
    airport1 airport2 airport3 - airport
    place1 place2 place3 - location
  )
  (:init
    (in-city airport1 city1)
    (in-city place1 city1)
    (in-city airport2 city2)
    (in-city place2 city2)
    (in-city airport3 city3)
    (in-city place3 city3)
    (at truck1 place1)
    (at truck2 place2)
    (at truck3 place3)
    (at plane1 airport1)
    (at package1 airport3)
  )
  (:goal (at package1 place1))
)
