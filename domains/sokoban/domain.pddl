; Sokoban: a robot walks and pushes boxes (one at a time) to their goal locations.
; Walls are cells that are not locations. (adjacent ?l1 ?l2 ?dir): ?l2 is next to ?l1 in direction ?dir.
; A location is clear when neither the robot nor a box is on it.
(define (domain sokoban)
  (:requirements :strips :typing)
  (:types location direction box)
  (:predicates
    (at-robot ?l - location)
    (at ?b - box ?l - location)
    (clear ?l - location)
    (adjacent ?l1 - location ?l2 - location ?dir - direction))

  (:action move
    :parameters (?l1 - location ?l2 - location ?dir - direction)
    :precondition (and (at-robot ?l1) (clear ?l2) (adjacent ?l1 ?l2 ?dir))
    :effect (and (at-robot ?l2) (clear ?l1) (not (at-robot ?l1)) (not (clear ?l2))))

  ; the robot at ?l1 pushes box ?b from ?l2 to ?l3, all in a line in direction ?dir
  (:action push
    :parameters (?l1 - location ?l2 - location ?l3 - location ?b - box ?dir - direction)
    :precondition (and (at-robot ?l1) (at ?b ?l2) (clear ?l3)
                       (adjacent ?l1 ?l2 ?dir) (adjacent ?l2 ?l3 ?dir))
    :effect (and (at-robot ?l2) (at ?b ?l3) (clear ?l1)
                 (not (at-robot ?l1)) (not (at ?b ?l2)) (not (clear ?l3)))))
