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
        { seed: 1, samplesPerState: 4, format: "native", threshold: 0.75, randomOptimal: false, balance: false, nonExecutable: "near-miss", timeMs: 20_000, maxExpansions: 1_000_000, maxStates: 1_000_000, chat: false, maxLength: null, tokenizer: null, maxOps: 1_000_000, maxFacts: 1_000_000, genericFallback: false, keepRows: false },
      );
    const r = job(clockProblem(6));
    expect(r.skipped).toBeNull();
    expect(r.text).toEqual({ rules_omitted: 0, fixed_omitted: 0, cost_omitted: 0, arithmetic: 2 });
    expect(job(clockProblem(3)).text).toBeUndefined();
  });
});
