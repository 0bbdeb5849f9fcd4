; Blocks world without an arm (3 operators): a clear block moves in one step.
(define (domain blocksworld-3ops)
  (:requirements :strips :typing :equality)
  (:types block)
  (:predicates
    (on ?x - block ?y - block)
    (ontable ?x - block)
    (clear ?x - block))

  ; move block ?x from block ?y to the table
  (:action move-b-to-t
    :parameters (?x - block ?y - block)
    :precondition (and (on ?x ?y) (clear ?x))
    :effect (and (ontable ?x) (clear ?y) (not (on ?x ?y))))

  ; move block ?x from the table onto block ?y
  (:action move-t-to-b
    :parameters (?x - block ?y - block)
    :precondition (and (ontable ?x) (clear ?x) (clear ?y) (not (= ?x ?y)))
    :effect (and (on ?x ?y) (not (ontable ?x)) (not (clear ?y))))

  ; move block ?x from block ?y onto block ?z
  (:action move-b-to-b
    :parameters (?x - block ?y - block ?z - block)
    :precondition (and (on ?x ?y) (clear ?x) (clear ?z) (not (= ?x ?z)))
    :effect (and (on ?x ?z) (clear ?y) (not (on ?x ?y)) (not (clear ?z)))))
