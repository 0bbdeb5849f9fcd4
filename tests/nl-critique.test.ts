/**
 * Critiques say what is true of the labelled step: h* = 0 is not the goal when actions cost
 * nothing, a zero-cost step does not "drop" the remaining cost, a step that changes nothing
 * undoes nothing, a dead end proved by the relaxation names the goal it cuts off, and a failed
 * condition is listed once.
 */
import { describe, expect, it } from "vitest";
import { classify, createLabelContext, groundingName, type Candidate, type LabelContext } from "../src/label/index.js";
import type { LabeledStep } from "../src/label/types.js";
import { createRenderer, loadTemplates } from "../src/nl/index.js";
import { relaxedReach, relaxedUnreachableGoals } from "../src/nl/relaxed-goals.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { applyOp, findOperator, ground, isApplicable, resolveGroundAction } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";
import { loadTask } from "./label-oracle.js";
import { textFaults } from "./nl-helpers.js";

function task(domain: string, problem: string): GroundTask {
  const d = parseDomain(domain, "domain.pddl");
  return ground(d, parseProblem(problem, "problem.pddl", d));
}

function cand(ctx: LabelContext, text: string): Candidate {
  const r = resolveGroundAction(ctx.task, text);
  if ("error" in r) throw new Error(r.error);
  const ops = findOperator(ctx.task, r.schema, r.args);
  return { schema: r.schema, args: r.args, name: groundingName(ctx, r.schema, r.args), op: ops[0] ?? -1 };
}

/** The labelled step of `action` after the walk `prefix` (applicable actions, PDDL text). */
function labelled(t: GroundTask, prefix: string[], action: string): LabeledStep {
  const ctx = createLabelContext(t);
  const visited = [t.init];
  const ops: number[] = [];
  for (const a of prefix) {
    const c = cand(ctx, a);
    const s = visited[visited.length - 1]!;
    const op = findOperator(t, c.schema, c.args).find((o) => isApplicable(t, s, o));
    if (op === undefined) throw new Error(`${a} not applicable`);
    ops.push(op);
    visited.push(applyOp(t, s, op));
  }
  const candidate = cand(ctx, action);
  const l = classify(ctx, visited[visited.length - 1]!, visited, candidate);
  return {
    problem: "p",
    stateIndex: prefix.length,
    prefix,
    prefixOps: ops,
    candidate,
    category: l.category,
    reward: l.reward,
    evidence: l.evidence,
    planLength: 0,
    candidateIndex: 0,
  };
}

/** The critique under many row PRNGs: every paraphrase the critic has for this step. */
function critiques(t: GroundTask, ls: LabeledStep, templates: ReturnType<typeof loadTemplates> | null = null): string[] {
  const r = createRenderer(t, templates);
  const out = new Set<string>();
  for (let i = 0; i < 60; i++) out.add(r.critique(ls, new Prng(i, "critique")));
  const all = [...out];
  for (const c of all) expect(textFaults(c), c).toEqual([]);
  return all;
}

/** The paraphrase openings of a critique category, one regex each. */
const OPENINGS: RegExp[] = [
  /^This step is correct and on an optimal plan: /,
  /^Good step: to /,
  /^Correct\. It is optimal to /,
  /^This step is correct: when I /,
  /^Correct: to /,
  /^Good step\. Once I /,
  /^This step changes nothing: /,
  /^This step is wasted: /,
  /^This step leads astray: /,
  /^This step is a detour that has to come back: /,
  /^This step undoes progress: /,
  /^This goes backwards: /,
  /^Not useful\. /,
  /^This step is a dead end: /,
  /^If I .*, the goal becomes unreachable: /,
  /^This ruins the task: /,
];

/** How many paraphrases (distinct openings) `cs` shows; every critique must have a known one. */
function openings(cs: readonly string[]): number {
  const seen = new Set<number>();
  for (const c of cs) {
    const i = OPENINGS.findIndex((re) => re.test(c));
    expect(i, c).toBeGreaterThanOrEqual(0);
    seen.add(i);
  }
  return seen.size;
}

// prep is free and enables make-a; make-b and make-c are free after make-a: h*(init) = 1, and
// after make-a h* = 0 although (made-b) and (made-c) are still false.
const ZERO_COST_DOMAIN = `
(define (domain zc)
  (:requirements :strips :action-costs)
  (:predicates (ready) (made-a) (made-b) (made-c))
  (:functions (total-cost))
  (:action prep :parameters () :precondition (and) :effect (and (ready) (increase (total-cost) 0)))
  (:action make-a :parameters () :precondition (ready) :effect (and (made-a) (increase (total-cost) 1)))
  (:action make-b :parameters () :precondition (made-a) :effect (and (made-b) (increase (total-cost) 0)))
  (:action make-c :parameters () :precondition (made-b) :effect (and (made-c) (increase (total-cost) 0))))`;
const ZERO_COST_PROBLEM = `
(define (problem zc1) (:domain zc)
  (:init (= (total-cost) 0))
  (:goal (and (made-a) (made-b) (made-c)))
  (:metric minimize (total-cost)))`;

// A line of rooms r0 - r1 - r2 - r3; the agent starts in r1 and must reach r3. (move r1 r1)
// is a self-loop (add wins over delete).
const ROOMS_DOMAIN = `
(define (domain line)
  (:requirements :strips :typing)
  (:types room)
  (:predicates (at ?r - room) (adjacent ?a ?b - room))
  (:action move :parameters (?from ?to - room)
    :precondition (at ?from)
    :effect (and (not (at ?from)) (at ?to))))`;
const ROOMS_PROBLEM = `
(define (problem line1) (:domain line)
  (:objects r0 r1 r2 r3 - room)
  (:init (at r1))
  (:goal (at r3)))`;
const ROOMS_ADJ_DOMAIN = ROOMS_DOMAIN.replace("(at ?from)\n", "(and (at ?from) (adjacent ?from ?to))\n");
const ROOMS_ADJ_PROBLEM = ROOMS_PROBLEM.replace(
  "(:init (at r1))",
  "(:init (at r1) (adjacent r0 r1) (adjacent r1 r0) (adjacent r1 r2) (adjacent r2 r1) (adjacent r2 r3) (adjacent r3 r2) (adjacent r1 r1))",
);

// Delivering needs the depot open; closing it is final: every delivery is cut off.
const DEPOT_DOMAIN = `
(define (domain depot)
  (:requirements :strips :typing)
  (:types parcel)
  (:predicates (open) (have ?p - parcel) (delivered ?p - parcel) (pair ?p ?q - parcel))
  (:action deliver :parameters (?p - parcel) :precondition (and (open) (have ?p)) :effect (delivered ?p))
  (:action deliver-two :parameters (?p ?q - parcel) :precondition (and (open) (have ?p) (have ?q)) :effect (and (delivered ?p) (delivered ?q)))
  (:action drop :parameters (?p - parcel) :precondition (have ?p) :effect (not (have ?p)))
  (:action close :parameters () :precondition (open) :effect (not (open))))`;
const depotProblem = (n: number): string => {
  const ps = Array.from({ length: n }, (_, i) => `p${i + 1}`);
  return `(define (problem depot${n}) (:domain depot)
  (:objects ${ps.join(" ")} - parcel)
  (:init (open) ${ps.map((p) => `(have ${p})`).join(" ")})
  (:goal (and ${ps.map((p) => `(delivered ${p})`).join(" ")})))`;
};

describe("optimal steps with zero-cost actions", () => {
  const t = task(ZERO_COST_DOMAIN, ZERO_COST_PROBLEM);

  it("h* = 0 after the step is not the goal when the goal does not hold", () => {
    const ls = labelled(t, ["(prep)"], "(make-a)");
    expect(ls.category).toBe("optimal");
    expect(ls.evidence).toMatchObject({ hBefore: 1, hAfter: 0, cost: 1 });
    const cs = critiques(t, ls);
    expect(openings(cs)).toBe(3);
    for (const c of cs) {
      expect(c).not.toMatch(/goal is reached|completes the goal|every goal condition holds/);
      expect(c).toContain("The goal does not hold yet after it, but the rest of the way to it costs nothing.");
      expect(c).toContain("drops from 1 to 0, exactly this step's cost of 1");
    }
  });

  it("a free step from h* = 0 that does not reach the goal either", () => {
    const ls = labelled(t, ["(prep)", "(make-a)"], "(make-b)");
    expect(ls.category).toBe("optimal");
    expect(ls.evidence).toMatchObject({ hBefore: 0, hAfter: 0, cost: 0 });
    const cs = critiques(t, ls);
    expect(openings(cs)).toBe(3);
    for (const c of cs) {
      expect(c).not.toMatch(/goal is reached|completes the goal|every goal condition holds|drops|stays at/);
      expect(c).toMatch(/this step costs 0\. The goal does not hold yet after it, but the rest of the way to it costs nothing\.$/);
    }
  });

  it("the goal reached at h* = 0 is still said so", () => {
    const ls = labelled(t, ["(prep)", "(make-a)", "(make-b)"], "(make-c)");
    expect(ls.category).toBe("optimal");
    expect(ls.evidence).toMatchObject({ hBefore: 0, hAfter: 0, cost: 0 });
    const cs = critiques(t, ls);
    expect(openings(cs)).toBe(3);
    expect(cs.every((c) => /goal is reached|completes the goal|every goal condition holds/.test(c))).toBe(true);
  });

  it("a zero-cost step leaves the remaining cost where it is: no drop from 1 to 1", () => {
    const ls = labelled(t, [], "(prep)");
    expect(ls.category).toBe("optimal");
    expect(ls.evidence).toMatchObject({ hBefore: 1, hAfter: 1, cost: 0 });
    const cs = critiques(t, ls);
    expect(openings(cs)).toBe(3);
    for (const c of cs) {
      expect(c).not.toMatch(/drops from 1 to 1/);
      expect(c).toContain("this step costs 0 and the cost still to pay for the goal stays at 1");
    }
  });
});

describe("backtracking critiques", () => {
  const FORBIDDEN = /undoes|undo|backwards|back in|what was done/;

  it("a self-loop changes nothing and only wastes a step", () => {
    const t = task(ROOMS_DOMAIN, ROOMS_PROBLEM);
    for (const prefix of [[], ["(move r1 r2)"]]) {
      const here = prefix.length === 0 ? "r1" : "r2";
      const ls = labelled(t, prefix, `(move ${here} ${here})`);
      expect(ls.category).toBe("backtracking");
      expect(ls.evidence.backtrackTo).toBe(prefix.length);
      const cs = critiques(t, ls);
      expect(openings(cs)).toBe(3);
      for (const c of cs) {
        expect(c).not.toMatch(FORBIDDEN);
        expect(c).toMatch(/nothing changes|changes nothing/);
        expect(c).toMatch(/wastes (one step|a step)/);
      }
    }
  });

  it("a step that only leads away from the initial state undoes nothing", () => {
    const t = task(ROOMS_ADJ_DOMAIN, ROOMS_ADJ_PROBLEM);
    const ls = labelled(t, [], "(move r1 r0)");
    expect(ls.category).toBe("backtracking");
    expect(ls.evidence.backtrackTo).toBe(0);
    const cs = critiques(t, ls);
    expect(openings(cs)).toBe(3);
    for (const c of cs) {
      expect(c).not.toMatch(FORBIDDEN);
      expect(c).toContain("every optimal plan from there has to pass through the initial state again");
    }
  });

  it("an exact return still says it is back in the earlier state", () => {
    const t = task(ROOMS_ADJ_DOMAIN, ROOMS_ADJ_PROBLEM);
    const ls = labelled(t, ["(move r1 r2)"], "(move r2 r1)");
    expect(ls.category).toBe("backtracking");
    expect(ls.evidence.backtrackTo).toBe(0);
    const cs = critiques(t, ls);
    expect(openings(cs)).toBe(3);
    for (const c of cs) expect(c).toContain("I am back in the initial state");
    expect(cs.some((c) => c.startsWith("This step undoes progress:"))).toBe(true);
  });

  it("a step to a new state after the walk moved: nothing undone either", () => {
    // a new state whose optimal plans come back to the walk, after a step was taken
    const t = loadTask("blocksworld", "blocksworld-p1.pddl");
    const ls = labelled(t, ["(unstack a b)"], "(stack a d)");
    expect(ls.category).toBe("backtracking");
    expect(ls.evidence.backtrackTo).toBe(1);
    const cs = critiques(t, ls, loadTemplates("blocksworld"));
    for (const c of cs) {
      expect(c).not.toMatch(FORBIDDEN);
      expect(c).toContain("has to pass through the state after step 1 again");
    }
  });
});

describe("dead ends proved by the relaxation", () => {
  it("name the goal condition that can no longer be reached", () => {
    const t = task(DEPOT_DOMAIN, depotProblem(2));
    const ls = labelled(t, ["(deliver p1)"], "(drop p2)");
    expect(ls.category).toBe("dead-end");
    expect(ls.evidence.deadEnd).toEqual({ kind: "relaxed-unreachable" });
    const cs = critiques(t, ls);
    expect(openings(cs)).toBe(3);
    const r = createRenderer(t, null);
    const p2 = t.objects.indexOf("p2");
    for (const c of cs) {
      expect(c).not.toContain("some goal condition");
      // what the step lost for good, then what that costs (issue 51: the concrete reason, not
      // only "even if no action ever undid anything")
      const m = /because after this step (.*), which no action can undo, and even if no action ever undid anything, the goal condition that (.*) could not be reached from there\.$|: after this step (.*), which no action can undo, and even if no action ever undid anything, the goal condition that (.*) could not be reached from there\.$|since after this step (.*), which no action can undo, and even if no action ever undid anything, the goal condition that (.*) could not be reached from there\.$/.exec(c);
      expect(m, c).not.toBeNull();
      const lost = m![1] ?? m![3] ?? m![5]!;
      const goal = m![2] ?? m![4] ?? m![6]!;
      // each reads back as exactly its fact: p2 no longer had (dropped), and the goal fact (delivered p2), said to hold
      expect(r.readFact(lost)).toEqual([{ pred: "have", args: [p2], pos: false }]);
      expect(r.readFact(goal)).toEqual([{ pred: "delivered", args: [p2], pos: true }]);
      expect(c).not.toMatch(/p1 (is|was) delivered/);
    }
  });

  it("name as lost only facts the step changed that nothing brings back", () => {
    const t = task(DEPOT_DOMAIN, depotProblem(2));
    const ls = labelled(t, [], "(close)");
    expect(ls.category).toBe("dead-end");
    const r = createRenderer(t, null);
    const next = applyOp(t, t.init, cand(createLabelContext(t), "(close)").op);
    const reach = relaxedReach(t, next);
    for (const c of critiques(t, ls)) {
      const m = /after this step (.*), which no action can undo/.exec(c);
      expect(m, c).not.toBeNull();
      const facts = r.readFact(m![1]!);
      expect(facts).toEqual([{ pred: "open", args: [], pos: false }]);
      const id = t.factNames.indexOf("(open)");
      // true before, false after, and the relaxation reaches it from nowhere after
      expect((t.init[id >>> 5]! >>> (id & 31)) & 1).toBe(1);
      expect((next[id >>> 5]! >>> (id & 31)) & 1).toBe(0);
      expect(reach.pos[id]).toBe(0);
    }
  });

  it("say the relaxation's reason alone when more than three lost facts are needed", () => {
    const d = `(define (domain kiln) (:requirements :strips)
      (:predicates (ok1) (ok2) (ok3) (ok4) (done1) (done2) (done3) (done4))
      (:action fire1 :parameters () :precondition (ok1) :effect (done1))
      (:action fire2 :parameters () :precondition (ok2) :effect (done2))
      (:action fire3 :parameters () :precondition (ok3) :effect (done3))
      (:action fire4 :parameters () :precondition (ok4) :effect (done4))
      (:action crack :parameters () :precondition () :effect (and (not (ok1)) (not (ok2)) (not (ok3)) (not (ok4)))))`;
    const t = task(d, `(define (problem k) (:domain kiln) (:init (ok1) (ok2) (ok3) (ok4)) (:goal (and (done1) (done2) (done3) (done4))))`);
    const ls = labelled(t, [], "(crack)");
    expect(ls.category).toBe("dead-end");
    for (const c of critiques(t, ls)) {
      expect(c).not.toContain("which no action can undo");
      expect(c).toContain("even if no action ever undid anything, the goal conditions that");
    }
  });

  it("name at most three and count the others", () => {
    const t = task(DEPOT_DOMAIN, depotProblem(5));
    const ls = labelled(t, [], "(close)");
    expect(ls.category).toBe("dead-end");
    expect(ls.evidence.deadEnd).toEqual({ kind: "relaxed-unreachable" });
    for (const c of critiques(t, ls)) {
      expect(c).toMatch(/the goal conditions that [^,]*p1[^,]*, that [^,]*p2[^,]*, that [^,]*p3[^,]* and two more could not be reached from there/);
      expect(c).not.toMatch(/p4|p5/);
    }
  });

  it("in a built-in domain, the named goal reads back as the goal fact", () => {
    // sokoban-p1: the goal is box b1 at l-3-5; pushed against the top wall it stays in row 1
    const t = loadTask("sokoban", "sokoban-p1.pddl");
    const ls = labelled(t, [], "(push l-3-2 l-2-2 l-1-2 b1 up)");
    expect(ls.category).toBe("dead-end");
    expect(ls.evidence.deadEnd).toEqual({ kind: "relaxed-unreachable" });
    const r = createRenderer(t, loadTemplates("sokoban"));
    const cs = critiques(t, ls, loadTemplates("sokoban"));
    expect(openings(cs)).toBe(3);
    for (const c of cs) {
      const m = /the goal condition that (.*) could not be reached from there\.$/.exec(c);
      expect(m, c).not.toBeNull();
      expect(r.readFact(m![1]!)).toEqual([{ pred: "at", args: [t.objects.indexOf("b1"), t.objects.indexOf("l-3-5")], pos: true }]);
    }
  });

  it("negative goals are named too (issue 51): the facts that can never become false", () => {
    // rooms: the goal is all negative ((not (on r))); from r5 no other room can be reached
    const t = loadTask("rooms", "rooms-p1.pddl");
    const ls = labelled(t, [], "(move bot r1 r5)");
    expect(ls.category).toBe("dead-end");
    expect(ls.evidence.deadEnd).toEqual({ kind: "relaxed-unreachable" });
    for (const c of critiques(t, ls, loadTemplates("rooms"))) {
      // r5's own light can still be switched off: the other four are named (a fourth left over is named, not counted as "one more")
      // and the concrete reason: the one move that cannot be undone (issue 51)
      expect(c).toContain("after this step the agent is not in room 1, which no action can undo, and even if no action ever undid anything, the goal conditions that the light in room 1 is off, that the light in room 2 is off, that the light in room 3 is off and that the light in room 4 is off could not be reached from there");
    }
  });

  it("relaxedUnreachableGoals is sound on the goal facts it reports", () => {
    const t = task(DEPOT_DOMAIN, depotProblem(3));
    expect(relaxedUnreachableGoals(t, t.init)).toEqual([]);
    const closed = applyOp(t, t.init, cand(createLabelContext(t), "(close)").op);
    expect(relaxedUnreachableGoals(t, closed).map((f) => t.factNames[f])).toEqual(["(delivered p1)", "(delivered p2)", "(delivered p3)"]);
  });
});

describe("non-executable critiques", () => {
  it("list a failed condition once", () => {
    const t = task(DEPOT_DOMAIN, depotProblem(2));
    const ls = labelled(t, ["(drop p1)"], "(deliver-two p1 p1)");
    expect(ls.category).toBe("non-executable");
    // the evidence may name (have p1) twice (once per parameter)
    const dup: LabeledStep = { ...ls, evidence: { ...ls.evidence, failedPreconditions: ["(have p1)", "(have p1)"] } };
    for (const s of [ls, dup]) {
      for (const c of critiques(t, s)) {
        const m = /, because (.*)\.$|here: (.*), so I|since (.*)\.$/.exec(c);
        expect(m, c).not.toBeNull();
        const reasons = (m![1] ?? m![2] ?? m![3])!.split(/, | and /);
        expect(new Set(reasons).size, c).toBe(reasons.length);
      }
    }
  });
});
