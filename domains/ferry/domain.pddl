; Ferry: one ferry carries one car at a time between locations.
(define (domain ferry)
  (:requirements :strips :typing :equality)
  (:types car location)
  (:predicates
    (at-ferry ?l - location)
    (at ?c - car ?l - location)
    (on ?c - car)
    (empty-ferry))

  (:action sail
    :parameters (?l1 - location ?l2 - location)
    :precondition (and (at-ferry ?l1) (not (= ?l1 ?l2)))
    :effect (and (at-ferry ?l2) (not (at-ferry ?l1))))

  (:action board
    :parameters (?c - car ?l - location)
    :precondition (and (at ?c ?l) (at-ferry ?l) (empty-ferry))
    :effect (and (on ?c) (not (at ?c ?l)) (not (empty-ferry))))

  (:action debark
    :parameters (?c - car ?l - location)
    :precondition (and (on ?c) (at-ferry ?l))
    :effect (and (at ?c ?l) (empty-ferry) (not (on ?c)))))
