; Rooms: an agent must switch off every light. Doors are fragile: passing through a door
; breaks it (in both directions), so a careless route can strand the agent.
(define (domain rooms)
  (:requirements :strips :typing :negative-preconditions)
  (:types agent room)
  (:predicates
    (at ?a - agent ?r - room)
    (door ?r1 - room ?r2 - room)
    (door-intact ?r1 - room ?r2 - room)
    (on ?r - room))

  ; walk from ?r1 to ?r2 through their door, which breaks behind the agent
  (:action move
    :parameters (?a - agent ?r1 - room ?r2 - room)
    :precondition (and (at ?a ?r1) (door ?r1 ?r2) (door-intact ?r1 ?r2))
    :effect (and (at ?a ?r2) (not (at ?a ?r1))
                 (not (door-intact ?r1 ?r2)) (not (door-intact ?r2 ?r1))))

  (:action turn-off
    :parameters (?a - agent ?r - room)
    :precondition (and (at ?a ?r) (on ?r))
    :effect (not (on ?r))))
