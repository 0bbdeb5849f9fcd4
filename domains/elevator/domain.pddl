; Elevator (Miconic): one lift carries passengers from their origin floor to their destination.
; (above ?f1 ?f2): floor ?f1 is (somewhere) above floor ?f2.
; (origin ?p ?f): passenger ?p is waiting at floor ?f (until boarding).
(define (domain elevator)
  (:requirements :strips :typing)
  (:types passenger floor)
  (:predicates
    (origin ?p - passenger ?f - floor)
    (destin ?p - passenger ?f - floor)
    (above ?f1 - floor ?f2 - floor)
    (boarded ?p - passenger)
    (served ?p - passenger)
    (lift-at ?f - floor))

  (:action board
    :parameters (?f - floor ?p - passenger)
    :precondition (and (lift-at ?f) (origin ?p ?f))
    :effect (and (boarded ?p) (not (origin ?p ?f))))

  (:action depart
    :parameters (?f - floor ?p - passenger)
    :precondition (and (lift-at ?f) (destin ?p ?f) (boarded ?p))
    :effect (and (served ?p) (not (boarded ?p))))

  ; go up from ?f1 to ?f2
  (:action up
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f2 ?f1))
    :effect (and (lift-at ?f2) (not (lift-at ?f1))))

  ; go down from ?f1 to ?f2
  (:action down
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f1 ?f2))
    :effect (and (lift-at ?f2) (not (lift-at ?f1)))))
