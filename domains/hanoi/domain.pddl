; Towers of Hanoi. Disks and pegs are both places a disk can sit on.
; (smaller ?x ?y): disk ?x is smaller than ?y; it holds for every disk and every peg.
(define (domain hanoi)
  (:requirements :strips :typing)
  (:types place - object
          disk peg - place)
  (:predicates
    (clear ?x - place)
    (on ?x - disk ?y - place)
    (smaller ?x - disk ?y - place))

  ; move disk ?d from ?from (a disk or a peg) onto ?to (a larger disk or a peg)
  (:action move
    :parameters (?d - disk ?from - place ?to - place)
    :precondition (and (smaller ?d ?to) (on ?d ?from) (clear ?d) (clear ?to))
    :effect (and (on ?d ?to) (clear ?from) (not (on ?d ?from)) (not (clear ?to)))))
