; N-puzzle: numbered tiles slide into the empty position of a square grid.
(define (domain npuzzle)
  (:requirements :strips :typing)
  (:types tile position)
  (:predicates
    (at ?t - tile ?p - position)
    (empty ?p - position)
    (neighbor ?p1 - position ?p2 - position))

  ; slide tile ?t from ?p1 into the empty neighbouring position ?p2
  (:action move
    :parameters (?t - tile ?p1 - position ?p2 - position)
    :precondition (and (at ?t ?p1) (empty ?p2) (neighbor ?p1 ?p2))
    :effect (and (at ?t ?p2) (empty ?p1) (not (at ?t ?p1)) (not (empty ?p2)))))
