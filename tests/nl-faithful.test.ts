/**
 * Faithful generic text (DESIGN.md §14): what a problem proves about its predicates (hints),
 * the readings built on it, the plain reading where a name has none, relations a domain uses
 * the other way round, and the prompt's budget with what it sums up.
 */
import { describe, expect, it } from "vitest";
import { createRenderer } from "../src/nl/index.js";
import { checkMeaning } from "../src/nl/meaning.js";
import { taskHints } from "../src/nl/hints.js";
import { verticalFlips } from "../src/nl/generic.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";

const CLOCK = `(define (domain clock) (:requirements :strips :typing)
  (:types time package location)
  (:predicates (time-now ?t - time) (next ?t1 ?t2 - time) (le ?t1 ?t2 - time) (at ?p - package ?l - location)
               (delivered ?p - package ?t - time) (sum ?a ?b ?c - time) (wq ?a ?b - time))
  (:action tick :parameters (?t1 ?t2 - time) :precondition (and (time-now ?t1) (next ?t1 ?t2))
    :effect (and (time-now ?t2) (not (time-now ?t1))))
  (:action deliver :parameters (?p - package ?l - location ?t1 ?t2 - time)
    :precondition (and (at ?p ?l) (time-now ?t1) (le ?t1 ?t2)) :effect (delivered ?p ?t2)))`;

function clockProblem(n: number, extra = ""): string {
  const ts = Array.from({ length: n }, (_, i) => `t${i}`);
  const next = ts.slice(1).map((t, i) => `(next t${i} ${t})`).join(" ");
  const le = ts.flatMap((a, i) => ts.slice(i).map((b) => `(le ${a} ${b})`)).join(" ");
  const sum = ts.flatMap((a, i) => ts.flatMap((b, j) => (i + j < n ? [`(sum ${a} ${b} t${i + j})`] : []))).join(" ");
  // "wq": not arithmetic (a gap), so it keeps its name
  return `(define (problem c) (:domain clock) (:objects ${ts.join(" ")} - time p1 - package l1 - location)
    (:init (time-now t0) ${next} ${le} ${sum} (wq t0 t2) (at p1 l1) ${extra}) (:goal (delivered p1 t${n - 1})))`;
}

function task(n: number) {
  const d = parseDomain(CLOCK, "clock.pddl");
  return ground(d, parseProblem(clockProblem(n), "c.pddl", d));
}

describe("hints: what a problem proves about its predicates", () => {
  it("finds successor, <= and + over numbered objects, a unary fluent true of exactly one, and not a gapped relation", () => {
    const h = taskHints(task(6));
    expect(h.get("next")!.numeric).toBe("succ");
    expect(h.get("le")!.numeric).toBe("le");
    expect(h.get("sum")!.numeric).toBe("sum");
    expect(h.get("wq")!.numeric).toBeNull();
    expect(h.get("time-now")!.exactlyOne).toBe(true);
    expect(h.get("at")!.static).toBe(true);
  });

  it("an arithmetic relation missing one fact is not arithmetic", () => {
    const d = parseDomain(CLOCK, "clock.pddl");
    const t = ground(d, parseProblem(clockProblem(5).replace("(le t1 t3)", ""), "c.pddl", d));
    expect(taskHints(t).get("le")!.numeric).toBeNull();
  });
});

describe("generic readings built on the hints", () => {
  it("reads proven arithmetic as arithmetic, a current value as 'the ... is', an unreadable name plainly", () => {
    const r = createRenderer(task(6), null);
    const pos = (p: string): string => r.templates.predicates.get(p)!.pos[0]!.source;
    expect(pos("next")).toBe("{t2} comes right after {t1}");
    expect(pos("le")).toBe("{t1} comes no later than {t2}");
    expect(pos("sum")).toBe("{a} plus {b} is {c}");
    expect(pos("time-now")).toBe("the time now is {t}");
    expect(pos("wq")).toBe('{a} stands in the relation "wq" to {b}');
    expect(r.templates.predicates.get("wq")!.plain).toBe(true);
    // every sentence still reads back to exactly its fact
    expect(checkMeaning(task(6), null).failures).toEqual([]);
  });

  it("a relation used the other way round from its word is read by the domain's up/down actions", () => {
    const lift = `(define (domain lift) (:requirements :strips)
      (:predicates (above ?f1 ?f2) (lift-at ?f))
      (:action up :parameters (?f1 ?f2) :precondition (and (lift-at ?f1) (above ?f1 ?f2)) :effect (and (lift-at ?f2) (not (lift-at ?f1))))
      (:action down :parameters (?f1 ?f2) :precondition (and (lift-at ?f1) (above ?f2 ?f1)) :effect (and (lift-at ?f2) (not (lift-at ?f1)))))`;
    const d = parseDomain(lift, "lift.pddl");
    expect(verticalFlips(d)).toEqual(new Set(["above"]));
    // a domain whose "up" agrees with the word keeps the literal reading
    expect(verticalFlips(parseDomain(lift.replace("(above ?f1 ?f2)) :effect", "(above ?f2 ?f1)) :effect").replace("(above ?f2 ?f1)) :effect (and (lift-at ?f2) (not (lift-at ?f1)))))", "(above ?f1 ?f2)) :effect (and (lift-at ?f2) (not (lift-at ?f1)))))"), "lift.pddl")).size).toBe(0);
  });
});

describe("roles from the effects", () => {
  const actionText = (domain: string, problem: string, name: string): string => {
    const d = parseDomain(domain, "d.pddl");
    const r = createRenderer(ground(d, parseProblem(problem, "p.pddl", d)), null);
    return r.templates.actions.get(name)!.text[0]!.source;
  };

  it("an offset named with a sign (yrel-1) adds to a coordinate: the sum reads as a sum, exact or not at all", () => {
    const dom = `(define (domain grid) (:requirements :strips :typing) (:types yc yrel robot)
      (:predicates (sum-y ?y - yc ?yr - yrel ?ysum - yc) (at ?r - robot ?y - yc))
      (:action step :parameters (?r - robot ?y1 ?y2 - yc ?d - yrel) :precondition (and (at ?r ?y1) (sum-y ?y1 ?d ?y2))
        :effect (and (at ?r ?y2) (not (at ?r ?y1)))))`;
    const sums = "(sum-y y0 yrel0 y0) (sum-y y0 yrel1 y1) (sum-y y1 yrel-1 y0) (sum-y y1 yrel0 y1) (sum-y y1 yrel1 y2) (sum-y y2 yrel-1 y1) (sum-y y2 yrel0 y2)";
    const prob = (init: string) => `(define (problem p) (:domain grid) (:objects y0 y1 y2 - yc yrel-1 yrel0 yrel1 - yrel r - robot) (:init (at r y0) ${init}) (:goal (at r y2)))`;
    const d = parseDomain(dom, "d.pddl");
    const t = ground(d, parseProblem(prob(sums), "p.pddl", d));
    const h = taskHints(t).get("sum-y")!;
    expect(h.numeric).toBe("sum");
    expect(h.numbers?.get("yrel-1")).toBe(-1);
    expect(createRenderer(t, null).templates.predicates.get("sum-y")!.pos[0]!.source).toBe("{y} plus {yr} is {ysum}");
    expect(checkMeaning(t, null).failures).toEqual([]);
    // one fact missing: not a sum, and not read as one
    const t2 = ground(d, parseProblem(prob(sums.replace("(sum-y y1 yrel-1 y0) ", "")), "p.pddl", d));
    expect(taskHints(t2).get("sum-y")!.numeric).toBeNull();
  });

  it("two verbs in a name take their own objects; a place named after a preposition; a recorded value said as its fact", () => {
    const keys = `(define (domain keys) (:requirements :strips)
      (:predicates (at ?k ?p) (holding ?k) (at-robot ?p) (arm-empty) (on-cart ?o ?c) (cart ?c))
      (:action pickup-and-loose :parameters (?curpos ?newkey ?oldkey)
        :precondition (and (at-robot ?curpos) (holding ?oldkey) (at ?newkey ?curpos))
        :effect (and (holding ?newkey) (at ?oldkey ?curpos) (not (holding ?oldkey)) (not (at ?newkey ?curpos))))
      (:action put-on-cart :parameters (?o ?c) :precondition (and (holding ?o) (cart ?c)) :effect (and (not (holding ?o)) (on-cart ?o ?c) (arm-empty))))`;
    const kp = "(define (problem p) (:domain keys) (:objects n1 k1 k2 c1) (:init (at-robot n1) (holding k2) (at k1 n1) (cart c1)) (:goal (holding k1)))";
    expect(actionText(keys, kp, "pickup-and-loose")).toBe("pick up {newkey} and loose {oldkey} at {curpos}");
    const carts = `(define (domain carts) (:requirements :strips :typing) (:types thing cart)
      (:predicates (holding ?o - thing) (on-cart ?o - thing ?c - cart))
      (:action put-on-cart :parameters (?o - thing ?c - cart) :precondition (holding ?o) :effect (and (not (holding ?o)) (on-cart ?o ?c))))`;
    const cartp = "(define (problem p) (:domain carts) (:objects o1 - thing c1 - cart) (:init (holding o1)) (:goal (on-cart o1 c1)))";
    expect(actionText(carts, cartp, "put-on-cart")).toBe("put {o} on cart {c}");
    // trucks' deliver: t2 is only the time the delivery records
    const trucks = CLOCK.replace("(delivered ?p - package ?t - time)", "(delivered ?p - package ?l - location ?t - time)").replace("(delivered ?p ?t2)", "(delivered ?p ?l ?t2)");
    const tp = clockProblem(4).replace("(delivered p1 t3)", "(delivered p1 l1 t3)");
    expect(actionText(trucks, tp, "deliver")).toBe("deliver {p} at {l} with time now {t1}, so that {p} is delivered to {l} with time {t2}");
  });
});

describe("the prompt's budget", () => {
  it("states a long arithmetic table once, and counts the fixed facts past the budget instead of listing them", () => {
    const small = createRenderer(task(6), null);
    const p6 = small.prompt(new Prng(1, "p"));
    // 21 sum facts: summed up as arithmetic, with an example
    expect(p6).toMatch(/"sum" holds exactly for the triples \(x, y, z\) with x \+ y = z among t0 to t5/);
    expect(p6).not.toMatch(/t1 plus t2 is t3/);
    expect(small.promptSummary().arithmetic).toContain("sum");
    // many fixed facts of a relation that is not arithmetic: counted past the budget
    const d = parseDomain(CLOCK, "clock.pddl");
    const wq = Array.from({ length: 60 }, (_, i) => Array.from({ length: 60 }, (_, j) => (i !== j && (i * 7 + j) % 3 === 0 ? `(wq t${i} t${j})` : ""))).flat().join(" ");
    const big = createRenderer(ground(d, parseProblem(clockProblem(60, wq), "c.pddl", d)), null);
    const p60 = big.prompt(new Prng(1, "p"));
    expect(p60).toMatch(/\d+ more fixed facts \(of "wq"\) are not listed here/);
    expect(big.promptSummary().fixedOmitted).toBeGreaterThan(0);
    expect(p60.length).toBeLessThan(12_000);
  });
});

describe("what a prompt summed up reaches the job's record (manifest.json's text)", () => {
  it("a problem whose fixed relation is arithmetic reports it; one that sums nothing up reports nothing", async () => {
    const { runJob } = await import("../src/dataset/job.js");
    const job = (problemText: string) =>
      runJob(
        { index: 0, split: "train", domainName: "clock", domainFile: "clock.pddl", domainText: CLOCK, problemId: "c", problemFile: "c.pddl", problemText, builtinTemplates: null, templatesFile: null },
        { seed: 1, samplesPerState: 4, format: "native", threshold: 0.75, randomOptimal: false, balance: false, nonExecutable: "near-miss", timeMs: 20_000, maxExpansions: 1_000_000, maxStates: 1_000_000, chat: false, maxLength: null, tokenizer: null, maxOps: 1_000_000, maxFacts: 1_000_000, genericFallback: false, wholeProblems: false, keepRows: false },
      );
    const r = job(clockProblem(6));
    expect(r.skipped).toBeNull();
    expect(r.text).toEqual({ rules_omitted: 0, fixed_omitted: 0, cost_omitted: 0, arithmetic: 2 });
    expect(job(clockProblem(3)).text).toBeUndefined();
  });
});
