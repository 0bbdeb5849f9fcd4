/** A small user domain (gripper with one robot hand), so CLI tests need nothing but the package. */
export const GRIPPER_DOMAIN = `(define (domain mini-gripper)
  (:requirements :strips :typing)
  (:types room ball)
  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free) (carry ?b - ball))
  (:action move :parameters (?from ?to - room)
    :precondition (at-robby ?from)
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?b - ball ?r - room)
    :precondition (and (at ?b ?r) (at-robby ?r) (free))
    :effect (and (carry ?b) (not (at ?b ?r)) (not (free))))
  (:action drop :parameters (?b - ball ?r - room)
    :precondition (and (carry ?b) (at-robby ?r))
    :effect (and (at ?b ?r) (free) (not (carry ?b)))))`;
