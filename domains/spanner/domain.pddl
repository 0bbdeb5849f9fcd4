; Spanner: a man walks a one-way path, picks up spanners (each usable once) and tightens
; the loose nuts at the gate at the end of the path.
(define (domain spanner)
  (:requirements :strips :typing)
  (:types location locatable - object
          man nut spanner - locatable)
  (:predicates
    (at ?x - locatable ?l - location)
    (carrying ?m - man ?s - spanner)
    (useable ?s - spanner)
    (loose ?n - nut)
    (tightened ?n - nut)
    (link ?l1 - location ?l2 - location))

  (:action walk
    :parameters (?l1 - location ?l2 - location ?m - man)
    :precondition (and (at ?m ?l1) (link ?l1 ?l2))
    :effect (and (at ?m ?l2) (not (at ?m ?l1))))

  (:action pickup-spanner
    :parameters (?l - location ?s - spanner ?m - man)
    :precondition (and (at ?m ?l) (at ?s ?l))
    :effect (and (carrying ?m ?s) (not (at ?s ?l))))

  (:action tighten-nut
    :parameters (?l - location ?s - spanner ?m - man ?n - nut)
    :precondition (and (at ?m ?l) (at ?n ?l) (carrying ?m ?s) (useable ?s) (loose ?n))
    :effect (and (tightened ?n) (not (loose ?n)) (not (useable ?s)))))
