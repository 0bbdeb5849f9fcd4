; Visit grid: a robot walks a grid and must visit the listed cells.
(define (domain visitgrid)
  (:requirements :strips :typing)
  (:types cell)
  (:predicates
    (at-robot ?l - cell)
    (visited ?l - cell)
    (connected ?l1 - cell ?l2 - cell))

  (:action move
    :parameters (?l1 - cell ?l2 - cell)
    :precondition (and (at-robot ?l1) (connected ?l1 ?l2))
    :effect (and (at-robot ?l2) (visited ?l2) (not (at-robot ?l1)))))
