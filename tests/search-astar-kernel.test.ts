import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SearchKernel, searchKernelRuns } from "../src/search/astar-kernel.js";
import { astarRun, type AStarOptions } from "../src/search/astar.js";
import { HMaxHeuristic, LmCutHeuristic, type KernelHeuristicSpec } from "../src/search/heuristics.js";
import { buildRelaxedTask, FdrStateMap, goalRelevance, successorOrder } from "../src/search/relaxed.js";
import { solve } from "../src/search/solve.js";
import type { Heuristic, SearchResult } from "../src/search/types.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground, SuccessorGenerator } from "../src/task/index.js";
import type { FdrTask } from "../src/task/fdr.js";
import type { GroundTask } from "../src/task/types.js";
import { handTask, mulberry, overflowTask, randomTask, type HandOp } from "./search-helpers.js";

// The A* kernel (src/search/wasm/search.as.ts) must search exactly as astarRun does: the same
// successor order, open-list order and reopening, so the same expansions, counts and plan.

const ROOT = join(import.meta.dirname, "..");

const outcome = (r: SearchResult & { reopened?: number }) => [r.status, r.cost, r.initialH, r.expanded, r.generated, r.evaluated, r.plan, r.reopened];

/** The kernel and astarRun on the same task, heuristic and options. */
function sameSearch(t: GroundTask, h: Heuristic & { kernelSpec(): KernelHeuristicSpec }, options: AStarOptions, maxExpansions?: number): SearchResult & { reopened: number } {
  const successorGenerator = new SuccessorGenerator(t);
  const opts = { ...options, successorGenerator };
  const kernel = SearchKernel.create(t, h.kernelSpec(), opts);
  expect(kernel).not.toBeNull();
  const limits = maxExpansions !== undefined ? { maxExpansions } : {};
  const k = kernel!.run(limits);
  const j = astarRun(t, h, { ...opts, limits });
  expect(outcome(k)).toEqual(outcome(j));
  return k;
}

/** Bigger random tasks: zero costs and inconsistent LM-Cut values make A* reopen states. */
function reopeningTask(rnd: () => number): GroundTask {
  const nf = 8 + Math.floor(rnd() * 10);
  const pick = (k: number): number[] => [...new Set(Array.from({ length: k }, () => Math.floor(rnd() * nf)))];
  const ops: HandOp[] = Array.from({ length: 10 + Math.floor(rnd() * 30) }, (_, j) => ({
    name: `o${j}`,
    pre: pick(1 + Math.floor(rnd() * 2)),
    negPre: [],
    add: pick(1 + Math.floor(rnd() * 2)),
    del: pick(Math.floor(rnd() * 3)),
    cost: rnd() < 0.25 ? 0 : 1 + Math.floor(rnd() * 9),
  }));
  for (const o of ops) if (rnd() < 0.3) o.negPre = pick(1).filter((f) => !o.pre.includes(f));
  return handTask(nf, ops, pick(2 + Math.floor(rnd() * 3)), pick(2 + Math.floor(rnd() * 3)), pick(Math.floor(rnd() * 2)));
}

describe("A* WebAssembly kernel", () => {
  it("is built by npm run build and runs STRIPS tasks with negative conditions and conditional effects", () => {
    const rnd = mulberry(3);
    expect(searchKernelRuns(randomTask(rnd, false, true))).toBe(true);
    let ce: GroundTask;
    do ce = randomTask(rnd, true, false);
    while (ce.ceFact.length === 0);
    expect(searchKernelRuns(ce)).toBe(true);
  });

  it("searches tasks with conditional effects as astarRun does (h^max, the effects fired on the state before)", () => {
    const rnd = mulberry(29);
    let withCe = 0;
    for (let i = 0; i < 300; i++) {
      const t = randomTask(rnd, true, i % 2 === 1);
      if (t.ceFact.length > 0) withCe++;
      const options: AStarOptions = {};
      if (i % 3 === 1) {
        const rel = goalRelevance(t);
        options.opMask = rel.ops;
        options.factMask = rel.factWords;
      }
      sameSearch(t, new HMaxHeuristic(t, buildRelaxedTask(t), "js"), options, i % 5 === 4 ? 3 : undefined);
    }
    expect(withCe).toBeGreaterThan(100);
  });

  it("searches again from any state, with a cost bound, as astarRun does", () => {
    const rnd = mulberry(31);
    let bounded = 0;
    for (let i = 0; i < 80; i++) {
      const t = randomTask(rnd, i % 2 === 0, i % 3 === 0);
      const h = new HMaxHeuristic(t, buildRelaxedTask(t), "js");
      const successorGenerator = new SuccessorGenerator(t);
      const kernel = SearchKernel.create(t, h.kernelSpec(), { successorGenerator })!;
      // one kernel, many searches: each starts afresh
      for (let k = 0; k < 6; k++) {
        const start = new Uint32Array(t.words);
        for (let f = 0; f < t.numFacts; f++) if (rnd() < 0.4) start[f >>> 5]! |= 1 << (f & 31);
        const bound = k % 2 === 0 ? Infinity : Math.floor(rnd() * 6);
        const a = kernel.runFrom(start, {}, bound);
        const j = astarRun(t, h, { start, successorGenerator, ...(bound !== Infinity ? { bound } : {}) });
        expect([a.status, a.cost, a.plan]).toEqual([j.status, j.cost, j.plan]);
        if (bound !== Infinity) bounded++;
      }
    }
    expect(bounded).toBeGreaterThan(100);
  });

  it("searches random tasks as astarRun does: LM-Cut and h^max, masks, successor orders, limits", () => {
    const rnd = mulberry(17);
    let solved = 0;
    for (let i = 0; i < 300; i++) {
      const t = randomTask(rnd, false, i % 2 === 1);
      const rt = buildRelaxedTask(t);
      const h = i % 3 === 0 ? new HMaxHeuristic(t, rt, "js") : new LmCutHeuristic(t, rt, "js");
      const options: AStarOptions = {};
      if (i % 4 === 1) {
        const rel = goalRelevance(t);
        options.opMask = rel.ops;
        options.factMask = rel.factWords;
      }
      if (i % 4 === 2) options.successorOrder = successorOrder(t);
      const r = sameSearch(t, h, options, i % 5 === 4 ? 3 : undefined);
      if (r.status === "solved") solved++;
    }
    expect(solved).toBeGreaterThan(100);
  });

  it("reopens states as astarRun does where values are inconsistent", () => {
    const rnd = mulberry(23);
    let reopened = 0;
    for (let i = 0; i < 200; i++) {
      const t = reopeningTask(rnd);
      // LM-Cut of a state's view on facts 0 and 1 where exactly one holds, else 0: values that
      // jump between neighbours, so cheaper paths to expanded states turn up
      const map = new FdrStateMap({ ranges: [2], values: [[0, 1]] } as unknown as FdrTask);
      const lm = new LmCutHeuristic(t, buildRelaxedTask(t), "js");
      const buf = new Uint32Array(map.words);
      const h = {
        name: "lmcut",
        evaluate: (s: Uint32Array) => (map.map(s, buf) ? lm.evaluate(buf) : 0),
        kernelSpec: (): KernelHeuristicSpec => ({ ...lm.kernelSpec(), map, fallback: () => 0 }),
      };
      reopened += sameSearch(t, h, {}).reopened;
    }
    expect(reopened).toBeGreaterThan(0);
  });

  it("evaluates states through a finite-domain map, and asks the host for the states it rejects", () => {
    const rnd = mulberry(41);
    let rejected = 0;
    for (let i = 0; i < 100; i++) {
      const t = randomTask(rnd, false, true);
      // one variable over facts 0 and 1 with no "none of those" value: states with neither or
      // both are rejected by the map and evaluated by the spec's fallback
      const view = { ranges: [2], values: [[0, 1]] } as unknown as FdrTask;
      const map = new FdrStateMap(view);
      const lmView = new LmCutHeuristic(t, buildRelaxedTask(t), "js");
      const plain = new HMaxHeuristic(t, buildRelaxedTask(t), "js");
      const buf = new Uint32Array(map.words);
      let fallbacks = 0;
      const h = {
        name: "lmcut",
        evaluate: (s: Uint32Array) => (map.map(s, buf) ? lmView.evaluate(buf) : plain.evaluate(s)),
        kernelSpec: (): KernelHeuristicSpec => ({
          ...lmView.kernelSpec(),
          map,
          fallback: (s) => {
            fallbacks++;
            return plain.evaluate(s);
          },
        }),
      };
      sameSearch(t, h, {});
      rejected += fallbacks;
    }
    expect(rejected).toBeGreaterThan(0);
  });

  it("gives solve's JavaScript result on problems of every built-in domain", () => {
    for (const domain of readdirSync(join(ROOT, "problems")).sort()) {
      const dFile = join(ROOT, "domains", domain, "domain.pddl");
      const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
      for (const f of readdirSync(join(ROOT, "problems", domain)).filter((x) => x.endsWith(".pddl")).sort().slice(0, 3)) {
        const pFile = join(ROOT, "problems", domain, f);
        const task = ground(d, parseProblem(readFileSync(pFile, "utf8"), pFile, d));
        const limits = { maxExpansions: 20000 };
        const k = solve(task, { limits });
        const j = solve(task, { limits, noKernel: true });
        const o = (r: typeof k) => [...outcome({ ...r, reopened: 0 }), r.heuristic];
        expect(o(k), `${domain}/${f}`).toEqual(o(j));
      }
    }
  });

  it("stops at the time limit where astarRun does (the clock's first read, before any expansion)", () => {
    const dFile = join(ROOT, "domains", "sokoban", "domain.pddl");
    const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
    const pFile = join(ROOT, "problems", "sokoban", "p0100.pddl");
    const task = ground(d, parseProblem(readFileSync(pFile, "utf8"), pFile, d));
    const k = solve(task, { limits: { timeMs: 0 } });
    const j = solve(task, { limits: { timeMs: 0 }, noKernel: true });
    expect([k.status, k.expanded]).toEqual(["limit", 0]);
    expect([j.status, j.expanded]).toEqual(["limit", 0]);
  });

  it("leaves tasks whose cost sums could overflow 32 bits to JavaScript", () => {
    const big = 1 << 28;
    const t = overflowTask();
    const h = new LmCutHeuristic(t, buildRelaxedTask(t), "js");
    expect(SearchKernel.create(t, h.kernelSpec(), { successorGenerator: new SuccessorGenerator(t) })).toBeNull();
    const r = solve(t);
    expect([r.status, r.cost]).toEqual(["solved", 2 * big + 3]);
  });
});
