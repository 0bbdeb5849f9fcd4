; Logistics: trucks move packages inside a city, airplanes between airports of cities.
(define (domain logistics)
  (:requirements :strips :typing :equality)
  (:types physobj location city - object
          package vehicle - physobj
          truck airplane - vehicle
          airport - location)
  (:predicates
    (at ?x - physobj ?l - location)
    (in ?p - package ?v - vehicle)
    (in-city ?l - location ?c - city))

  (:action load-truck
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (at ?p ?l))
    :effect (and (in ?p ?t) (not (at ?p ?l))))

  (:action unload-truck
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (in ?p ?t))
    :effect (and (at ?p ?l) (not (in ?p ?t))))

  (:action load-airplane
    :parameters (?p - package ?a - airplane ?l - airport)
    :precondition (and (at ?a ?l) (at ?p ?l))
    :effect (and (in ?p ?a) (not (at ?p ?l))))

  (:action unload-airplane
    :parameters (?p - package ?a - airplane ?l - airport)
    :precondition (and (at ?a ?l) (in ?p ?a))
    :effect (and (at ?p ?l) (not (in ?p ?a))))

  (:action drive-truck
    :parameters (?t - truck ?l1 - location ?l2 - location ?c - city)
    :precondition (and (at ?t ?l1) (in-city ?l1 ?c) (in-city ?l2 ?c) (not (= ?l1 ?l2)))
    :effect (and (at ?t ?l2) (not (at ?t ?l1))))

  (:action fly-airplane
    :parameters (?a - airplane ?l1 - airport ?l2 - airport)
    :precondition (and (at ?a ?l1) (not (= ?l1 ?l2)))
    :effect (and (at ?a ?l2) (not (at ?a ?l1)))))
