import { describe, expect, it } from "vitest";
import {
  classify,
  createLabelContext,
  labelProblemAll,
  ProblemSkipped,
  sampleCandidates,
  groundingName,
  repeatsObject,
  type Candidate,
  type LabelContext,
} from "../src/label/index.js";
import { applyOp, findOperator, isApplicable, resolveGroundAction } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";
import { loadTask } from "./label-oracle.js";

function cand(ctx: LabelContext, text: string): Candidate {
  const r = resolveGroundAction(ctx.task, text);
  if ("error" in r) throw new Error(r.error);
  const ops = findOperator(ctx.task, r.schema, r.args);
  return { schema: r.schema, args: r.args, name: groundingName(ctx, r.schema, r.args), op: ops[0] ?? -1 };
}

/** States s0..sk after applying the named actions. */
function walk(task: GroundTask, ctx: LabelContext, actions: string[]): Uint32Array[] {
  const out = [task.init];
  for (const a of actions) {
    const s = out[out.length - 1]!;
    const c = cand(ctx, a);
    const op = findOperator(task, c.schema, c.args).find((o) => isApplicable(task, s, o));
    if (op === undefined) throw new Error(`${a} not applicable`);
    out.push(applyOp(task, s, op));
  }
  return out;
}

function labelAfter(domain: string, file: string, prefix: string[], action: string) {
  const task = loadTask(domain, file);
  const ctx = createLabelContext(task);
  const v = walk(task, ctx, prefix);
  return classify(ctx, v[v.length - 1]!, v, cand(ctx, action));
}

describe("hand-made cases", () => {
  // blocksworld-p1: a on b, d on c; goal d on c on b on a (optimal cost 10).
  it("non-executable: failed precondition literals", () => {
    const l = labelAfter("blocksworld", "blocksworld-p1.pddl", [], "(stack a c)");
    expect(l.category).toBe("non-executable");
    expect(l.reward).toBe(0);
    expect(l.evidence.failedPreconditions).toEqual(["(holding a)", "(clear c)"]);
    expect(l.evidence.hBefore).toBe(10);
    expect(l.evidence.hAfter).toBeNull();
    expect(l.evidence.cost).toBeNull();
  });

  it("non-executable: a grounding the grounder pruned (equality)", () => {
    const l = labelAfter("blocksworld-3ops", "blocksworld-3ops-p1.pddl", [], "(move-b-to-b a b a)");
    expect(l.category).toBe("non-executable");
    expect(l.evidence.failedPreconditions.length).toBeGreaterThan(0);
  });

  it("optimal", () => {
    const l = labelAfter("blocksworld", "blocksworld-p1.pddl", [], "(unstack d c)");
    expect(l).toMatchObject({ category: "optimal", reward: 1 });
    expect(l.evidence).toMatchObject({ hBefore: 10, hAfter: 9, cost: 1, extraCost: 0, backtrackTo: null, deadEnd: null });
  });

  it("backtracking: undoing the last step returns to a visited state", () => {
    const l = labelAfter("blocksworld", "blocksworld-p1.pddl", ["(unstack a b)"], "(stack a b)");
    expect(l).toMatchObject({ category: "backtracking", reward: 0.5 });
    expect(l.evidence).toMatchObject({ hBefore: 9, hAfter: 10, extraCost: 2, backtrackTo: 0 });
  });

  it("backtracking: s' is new but every optimal plan from it returns to the walk", () => {
    // a on d then needs (unstack a d), which is the state after step 1 again
    const l = labelAfter("blocksworld", "blocksworld-p1.pddl", ["(unstack a b)"], "(stack a d)");
    expect(l).toMatchObject({ category: "backtracking", reward: 0.5 });
    expect(l.evidence).toMatchObject({ hBefore: 9, hAfter: 10, extraCost: 2, backtrackTo: 1 });
  });

  it("suboptimal: a detour some optimal plan recovers from without revisiting", () => {
    // visitgrid-p1: from c22 visit c11, c13, c33 (6 moves). After c22 -> c12, going back to c22
    // costs 2 extra, and c22 -> c21 -> c11 -> ... avoids the visited states.
    const l = labelAfter("visitgrid", "visitgrid-p1.pddl", ["(move c22 c12)"], "(move c12 c22)");
    expect(l).toMatchObject({ category: "suboptimal", reward: 0.75 });
    expect(l.evidence).toMatchObject({ hBefore: 5, hAfter: 6, cost: 1, extraCost: 2, backtrackTo: null });
  });

  it("dead-end in rooms (exhaustive proof: the relaxation ignores broken doors)", () => {
    const l = labelAfter("rooms", "rooms-p2.pddl", [], "(move bot r0 r1)");
    expect(l).toMatchObject({ category: "dead-end", reward: 0.25 });
    expect(l.evidence.hBefore).toBe(5);
    expect(l.evidence.hAfter).toBeNull();
    expect(l.evidence.extraCost).toBeNull();
    expect(l.evidence.deadEnd?.kind).toBe("exhaustive");
    const ok = labelAfter("rooms", "rooms-p2.pddl", [], "(move bot r0 r2)");
    expect(ok.category).toBe("optimal");
  });

  it("dead-end in rooms: entering a room whose only door breaks", () => {
    // The goal is all negative ((not (on r))); the relaxation keeps "r is off" as a fact that
    // only turn-off in r adds, and from r5 no other room can be reached even relaxed.
    const l = labelAfter("rooms", "rooms-p1.pddl", [], "(move bot r1 r5)");
    expect(l.category).toBe("dead-end");
    expect(l.evidence.deadEnd).toEqual({ kind: "relaxed-unreachable" });
  });

  it("dead-end in spanner: walking on from l1 without a spanner", () => {
    const l = labelAfter("spanner", "spanner-p1.pddl", ["(walk shed l1 bob)"], "(walk l1 l2 bob)");
    expect(l.category).toBe("dead-end");
    // in the relaxation bob is still at l1 and can pick both spanners up
    expect(l.evidence.deadEnd?.kind).toBe("exhaustive");
    const pick = labelAfter("spanner", "spanner-p1.pddl", ["(walk shed l1 bob)", "(pickup-spanner l1 s1 bob)"], "(walk l1 l2 bob)");
    expect(pick.category).toBe("optimal");
  });

  it("dead-end in sokoban: a box pushed against the top wall", () => {
    const l = labelAfter("sokoban", "sokoban-p1.pddl", [], "(push l-3-2 l-2-2 l-1-2 b1 up)");
    expect(l.category).toBe("dead-end");
    expect(l.evidence.deadEnd).toEqual({ kind: "relaxed-unreachable" });
  });
});

describe("sampler", () => {
  const task = loadTask("logistics", "logistics-p1.pddl");
  const ctx = createLabelContext(task);
  const s = task.init;

  it("draws y distinct candidates, deterministically per seed", () => {
    const a = sampleCandidates(ctx, s, 8, new Prng(5, "x"));
    const b = sampleCandidates(ctx, s, 8, new Prng(5, "x"));
    expect(a).toEqual(b);
    expect(a).toHaveLength(8);
    expect(new Set(a.map((c) => c.name)).size).toBe(8);
    // near misses are ground operators of the task
    for (const c of a) expect(c.op).toBeGreaterThanOrEqual(0);
    const exec = a.filter((c) => isApplicable(task, s, c.op)).length;
    expect(exec).toBeGreaterThan(0);
    expect(exec).toBeLessThan(8);
  });

  it("returns fewer than y when fewer candidates exist", () => {
    const all = sampleCandidates(ctx, s, 100_000, new Prng(1));
    const names = new Set(Array.from({ length: task.numOps }, (_, op) => task.opNames[op]));
    expect(all.length).toBe(names.size);
  });

  it('"any" draws type-correct groundings, some pruned by grounding', () => {
    const xs = sampleCandidates(ctx, s, 60, new Prng(2), { nonExecutable: "any", executableShare: 0.1 });
    expect(new Set(xs.map((c) => c.name)).size).toBe(xs.length);
    expect(xs.some((c) => c.op === -1)).toBe(true);
    for (const c of xs) {
      const r = resolveGroundAction(task, c.name);
      expect("error" in r).toBe(false);
    }
  });

  it("near-misses never name one object twice where no such action is executable; 'any' still may", () => {
    const repeats = (c: Candidate) => new Set(c.args).size !== c.args.length;
    for (const [domain, file] of [["blocksworld", "blocksworld-p1.pddl"], ["hanoi", "hanoi-p1.pddl"], ["blocksworld-3ops", "blocksworld-3ops-p1.pddl"]] as const) {
      const t = loadTask(domain, file);
      // the ground task has such operators ((stack a a), (move d p p)): never applicable
      expect(Array.from({ length: t.numOps }, (_, op) => op).some((op) => repeatsObject(t, op))).toBe(true);
      const steps = labelProblemAll(t, { problemId: domain, seed: 3, samplesPerState: 1000 });
      expect(steps.filter((x) => repeats(x.candidate)), domain).toEqual([]);
      expect(sampleCandidates(createLabelContext(t), t.init, 1000, new Prng(1)).filter(repeats), domain).toEqual([]);
      const any = labelProblemAll(t, { problemId: domain, seed: 3, samplesPerState: 40, nonExecutable: "any" });
      expect(any.some((x) => repeats(x.candidate)), domain).toBe(true);
    }
  });

  it("a candidate's position says nothing about its label: executable ones are not drawn first", () => {
    let concordant = 0;
    let pairs = 0;
    for (const [domain, file] of [["blocksworld", "blocksworld-p1.pddl"], ["logistics", "logistics-p1.pddl"], ["ferry", "ferry-p1.pddl"], ["spanner", "spanner-p1.pddl"]] as const) {
      const steps = labelProblemAll(loadTask(domain, file), { problemId: domain, seed: 11, samplesPerState: 8 });
      const byState = new Map<number, typeof steps>();
      for (const x of steps) byState.set(x.stateIndex, [...(byState.get(x.stateIndex) ?? []), x]);
      for (const xs of byState.values()) {
        for (const a of xs) {
          for (const b of xs) {
            if (a.category === "non-executable" || b.category !== "non-executable") continue;
            pairs++;
            if (a.candidateIndex < b.candidateIndex) concordant++;
          }
        }
      }
    }
    // In draw order an executable candidate came before a non-executable one of its state 3 times in 4.
    expect(pairs).toBeGreaterThan(200);
    expect(Math.abs(concordant / pairs - 0.5)).toBeLessThan(0.08);
  });

  it("balance draws toward rare categories", () => {
    const opts = { problemId: "p", seed: 4, samplesPerState: 4 };
    const plain = labelProblemAll(task, opts);
    const bal = labelProblemAll(task, { ...opts, balance: true });
    const share = (xs: { category: string }[], c: string) => xs.filter((x) => x.category === c).length / xs.length;
    expect(share(bal, "non-executable")).toBeLessThan(share(plain, "non-executable"));
    expect(share(bal, "suboptimal")).toBeGreaterThan(share(plain, "suboptimal"));
  });
});

describe("walk", () => {
  it("same seed, same steps; the walk does not depend on y", () => {
    const task = loadTask("sokoban", "sokoban-p2.pddl");
    const o = { problemId: "sokoban/p2", seed: 42, samplesPerState: 6, randomOptimal: true };
    const a = labelProblemAll(task, o);
    const b = labelProblemAll(loadTask("sokoban", "sokoban-p2.pddl"), o);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const c = labelProblemAll(task, { ...o, samplesPerState: 2 });
    const lastPrefix = (xs: typeof a) => xs[xs.length - 1]!.prefix;
    expect(lastPrefix(c)).toEqual(lastPrefix(a));
    const d = labelProblemAll(task, { ...o, seed: 43 });
    expect(JSON.stringify(d)).not.toBe(JSON.stringify(a));
  });

  it("an unsolvable problem is skipped, not half-labelled", () => {
    const task = loadTask("rooms", "rooms-unsolvable.pddl");
    let err: unknown;
    try {
      labelProblemAll(task, { problemId: "u", seed: 1, samplesPerState: 4 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProblemSkipped);
    expect((err as ProblemSkipped).reason).toBe("unsolvable");
  });

  it("a problem that hits a limit is skipped with the reason", () => {
    const task = loadTask("logistics", "logistics-p1.pddl");
    let err: unknown;
    try {
      // the explicit space does not fit in 10 states, so the oracle searches with 2 expansions
      labelProblemAll(task, { problemId: "l", seed: 1, samplesPerState: 4, oracleMaxStates: 10, limits: { maxExpansions: 2 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProblemSkipped);
    expect((err as ProblemSkipped).reason).toBe("limit");
  });

  it("search-mode oracle gives the same labels as the explicit one", () => {
    const task = loadTask("spanner", "spanner-p1.pddl");
    const o = { problemId: "s", seed: 9, samplesPerState: 100, recovery: true };
    const a = labelProblemAll(task, o);
    const b = labelProblemAll(task, { ...o, oracleMaxStates: 5 });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
