import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { HMaxHeuristic, LmCutHeuristic, createHeuristic } from "../src/search/heuristics.js";
import { lmcutKernelAvailable } from "../src/search/lmcut-kernel.js";
import { buildRelaxedTask, buildRelaxedTaskFromFdr, FdrStateMap } from "../src/search/relaxed.js";
import { astarRun } from "../src/search/astar.js";
import { StateSpace } from "../src/search/space.js";
import { fdrTaskOf } from "../src/task/fdr.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { handTask, mulberry, overflowTask, randomTask, type HandOp } from "./search-helpers.js";

// The WebAssembly kernel (src/search/wasm/lmcut.as.ts) must give exactly the values of the
// JavaScript reference, state after state: LM-Cut's value depends on tie-breaking (supporter
// choice, queue order, the bucket-to-heap switch), so any deviation in the port shows here.

const ROOT = join(import.meta.dirname, "..");

function randomState(t: GroundTask, rnd: () => number, p = 0.35): Uint32Array {
  const s = new Uint32Array(t.words);
  for (let f = 0; f < t.numFacts; f++) if (rnd() < p) s[f >>> 5]! |= 1 << (f & 31);
  return s;
}

/** Many operators per fact, zero and large costs: long supporter lists, heap mode of the queue. */
function denseTask(rnd: () => number, maxCost: number): GroundTask {
  const nf = 10 + Math.floor(rnd() * 30);
  const pick = (k: number): number[] => [...new Set(Array.from({ length: k }, () => Math.floor(rnd() * nf)))];
  const ops: HandOp[] = Array.from({ length: 20 + Math.floor(rnd() * 80) }, (_, j) => ({
    name: `o${j}`,
    pre: pick(1 + Math.floor(rnd() * 3)),
    add: pick(1 + Math.floor(rnd() * 3)),
    del: pick(Math.floor(rnd() * 2)),
    cost: rnd() < 0.2 ? 0 : Math.floor(rnd() * maxCost),
  }));
  return handTask(nf, ops, [], pick(2 + Math.floor(rnd() * 4)));
}

function sameValues(t: GroundTask, rnd: () => number, states: number): void {
  const rt = buildRelaxedTask(t);
  if (rt.hasConditionalEffects) return;
  const kernel = new LmCutHeuristic(t, rt, "wasm");
  const js = new LmCutHeuristic(t, rt, "js");
  const hk = new HMaxHeuristic(t, rt, "wasm");
  const hj = new HMaxHeuristic(t, rt, "js");
  // "auto": JavaScript for a small task's first evaluations, then the kernel
  const auto = new LmCutHeuristic(t, rt);
  expect(kernel.usesKernel).toBe(true);
  expect(auto.usesKernel).toBe(true);
  expect(js.usesKernel).toBe(false);
  for (let k = 0; k < states; k++) {
    const s = randomState(t, rnd);
    const h = js.evaluate(s);
    expect(kernel.evaluate(s)).toBe(h);
    expect(auto.evaluate(s)).toBe(h);
    expect(hk.evaluate(s)).toBe(hj.evaluate(s));
  }
  expect(kernel.evaluate(t.init)).toBe(js.evaluate(t.init));
}

describe("LM-Cut WebAssembly kernel", () => {
  it("is built by npm run build and enabled", () => {
    expect(lmcutKernelAvailable()).toBe(true);
  });

  it("gives the JavaScript values on random tasks, with negative conditions, state after state", () => {
    const rnd = mulberry(91);
    for (let i = 0; i < 300; i++) sameValues(randomTask(rnd, false, i % 2 === 1), rnd, 12);
  });

  it("gives the JavaScript values with long supporter lists, zero costs and the queue's switch to a heap", () => {
    const rnd = mulberry(5);
    for (let i = 0; i < 150; i++) sameValues(denseTask(rnd, i % 3 === 0 ? 4 : i % 3 === 1 ? 150 : 5000), rnd, i < 30 ? 80 : 25);
  });

  it("gives the JavaScript values on finite-domain views of the built-in domains, and the same A* search", () => {
    for (const domain of ["logistics", "sokoban", "spanner", "elevator", "visitgrid", "blocksworld"]) {
      const dFile = join(ROOT, "domains", domain, "domain.pddl");
      const pFile = join(ROOT, "problems", domain, readdirSync(join(ROOT, "problems", domain)).filter((f) => f.endsWith(".pddl")).sort()[3]!);
      const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
      const task = ground(d, parseProblem(readFileSync(pFile, "utf8"), pFile, d));
      const fdr = fdrTaskOf(task);
      if ("unsupported" in fdr) throw new Error(`${domain}: no finite-domain view`);
      const rt = buildRelaxedTaskFromFdr(fdr);
      const map = new FdrStateMap(fdr);
      const kernel = new LmCutHeuristic(task, rt, "wasm");
      const js = new LmCutHeuristic(task, rt, "js");
      expect(kernel.usesKernel).toBe(true);
      // the states of a breadth-first layer or two, mapped to the view
      const space = new StateSpace(task);
      const seen = [space.intern(task.init)];
      const ops: number[] = [];
      const out = new Uint32Array(task.words);
      for (let i = 0; i < seen.length && seen.length < 300; i++) {
        space.applicable(space.get(seen[i]!), ops);
        for (const op of ops) {
          const before = space.size;
          const id = space.intern(space.apply(space.get(seen[i]!), op, out));
          if (space.size > before) seen.push(id);
        }
      }
      const buf = new Uint32Array(map.words);
      for (const id of seen) {
        expect(map.map(space.get(id), buf)).toBe(true);
        expect(kernel.evaluate(buf)).toBe(js.evaluate(buf));
      }
      const a = astarRun(task, createHeuristic(task, "lmcut"));
      const b = astarRun(task, { name: "lmcut", evaluate: (s: Uint32Array) => (map.map(s, buf) ? js.evaluate(buf) : NaN) });
      expect([a.cost, a.expanded, a.evaluated, a.initialH]).toEqual([b.cost, b.expanded, b.evaluated, b.initialH]);
    }
  });

  it("leaves tasks whose cost sums could overflow 32 bits to JavaScript, with the same values", () => {
    const big = 1 << 28;
    const t = overflowTask();
    const lm = new LmCutHeuristic(t);
    expect(lm.usesKernel).toBe(false);
    expect(lm.evaluate(t.init)).toBe(2 * big + 3);
  });
});
