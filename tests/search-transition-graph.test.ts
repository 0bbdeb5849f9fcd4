import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { builtinDomainFile, generateProblems } from "../src/generators/index.js";
import { createOracle, sameTransitions, TransitionGraph, TransitionGraphCache, transitionHash } from "../src/search/index.js";
import { GRAPH_BASE_WEIGHT } from "../src/search/transition-graph.js";
import { createLabelContext, labelProblemAll, noteLabellingTime } from "../src/label/index.js";
import { BruteOracle, ROOT } from "./label-oracle.js";

const key = (s: Uint32Array): string => Array.from(s).join(",");

/** Generated problems of a built-in domain, grounded, grouped by transition system (largest group first). */
function systems(domain: string, count: number, seed: number): GroundTask[][] {
  const dFile = builtinDomainFile(domain);
  const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
  const groups = new Map<number, GroundTask[]>();
  for (const p of generateProblems(domain, { count, seed, planLengths: false })) {
    const t = ground(d, parseProblem(p.text, `${p.name}.pddl`, d));
    const k = transitionHash(t);
    groups.set(k, [...(groups.get(k) ?? []), t]);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

/** Roads (action costs) with other initial states and goals: the same transitions. */
function roads(variants: Array<[string, string]>): GroundTask[] {
  const dFile = join(ROOT, "tests", "fixtures", "search", "roads-domain.pddl");
  const pFile = join(ROOT, "tests", "fixtures", "search", "roads-p1.pddl");
  const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
  const text = readFileSync(pFile, "utf8");
  return variants.map(([at, goal]) => ground(d, parseProblem(text.replace("(:init (at s)", `(:init ${at}`).replace("(:goal (and (at t) (visited s)))", `(:goal ${goal})`), pFile, d)));
}

/** h* from the shared graph equals an independent brute-force oracle of each task, on every state. */
function expectExact(tasks: GroundTask[]): number {
  const graph = new TransitionGraph(tasks[0]!);
  for (const t of tasks) expect(graph.extend(t.init, 1e6, 1e7)).toBe(true);
  let checked = 0;
  for (const t of tasks) {
    const dist = graph.goalDistances(t);
    const brute = new BruteOracle(t);
    for (const [k, s] of brute.states) {
      const id = graph.space.lookup(s);
      expect(id).toBeGreaterThanOrEqual(0);
      expect(dist.of(id)).toBe(brute.h.get(k));
      checked++;
    }
    // states of the graph that this task cannot reach still get exact values
    for (let id = 0; id < graph.states; id += 7) expect(dist.of(id)).toBe(createOracle(t, { mode: "search" }).hstar(graph.space.get(id)));
  }
  return checked;
}

describe("TransitionGraph", () => {
  it("one graph gives every blocksworld problem of a size its exact h* (unit costs, lazy breadth-first)", () => {
    const group = systems("blocksworld", 40, 3).find((g) => g.length >= 3 && g[0]!.objects.length <= 5)!;
    expect(group).toBeDefined();
    expect(new Set(group.map((t) => key(t.init))).size).toBeGreaterThan(1);
    expect(expectExact(group.slice(0, 4))).toBeGreaterThan(100);
  });

  it("costs: Dijkstra order, dead ends are Infinity", () => {
    const tasks = roads([
      ["(at s)", "(and (at t) (visited s))"],
      ["(at x)", "(at y)"],
      ["(at t)", "(and (at x) (visited t))"],
    ]);
    expect(sameTransitions(tasks[0]!, tasks[1]!) && sameTransitions(tasks[0]!, tasks[2]!)).toBe(true);
    expect(Math.max(...tasks[0]!.opCost)).toBeGreaterThan(1);
    expectExact(tasks);
  });

  it("answers a query after covering only part of a large space", () => {
    // 8-puzzles of one generated set: 181,440 states, but a walk's states lie near the goal
    const group = systems("npuzzle", 6, 1)[0]!;
    const graph = new TransitionGraph(group[0]!);
    expect(graph.extend(group[0]!.init, 1e6, 1e7)).toBe(true);
    expect(graph.states).toBe(181_440);
    const dist = graph.goalDistances(group[0]!);
    const h0 = dist.of(graph.space.lookup(group[0]!.init));
    expect(h0).toBe(createOracle(group[0]!, { mode: "search" }).hstar(group[0]!.init));
  });

  it("a compacted graph gives the same h* and grows again when a new initial state adds states", () => {
    const group = systems("blocksworld", 40, 3).find((g) => g.length >= 3 && g[0]!.objects.length <= 5)!;
    const whole = new TransitionGraph(group[0]!);
    for (const t of group.slice(0, 3)) expect(whole.extend(t.init, 1e6, 1e7)).toBe(true);
    const compacted = new TransitionGraph(group[0]!);
    for (const t of group.slice(0, 3)) {
      expect(compacted.extend(t.init, 1e6, 1e7)).toBe(true);
      compacted.compact();
    }
    expect([compacted.states, compacted.edges]).toEqual([whole.states, whole.edges]);
    for (const t of group.slice(0, 3)) {
      const a = whole.goalDistances(t);
      const b = compacted.goalDistances(t);
      for (let id = 0; id < whole.states; id++) expect(b.of(compacted.space.lookup(whole.space.get(id)))).toBe(a.of(id));
    }
    // a graph compacted after its first state only, then extended by a problem of the system
    const tiny = new TransitionGraph(group[0]!);
    expect(tiny.extend(group[0]!.init, 1, 1e7)).toBe(false);
    const fresh = new TransitionGraph(group[1]!);
    fresh.compact();
    expect(fresh.extend(group[1]!.init, 1e6, 1e7)).toBe(true);
    expect(fresh.states).toBeGreaterThan(1);
    expectExact([group[1]!]);
  });

  it("extend reports a graph over its caps", () => {
    const group = systems("npuzzle", 2, 1)[0]!;
    const graph = new TransitionGraph(group[0]!);
    expect(graph.extend(group[0]!.init, 1000, 1e7)).toBe(false);
    expect(new TransitionGraph(group[0]!).extend(group[0]!.init, 1e7, 500)).toBe(false);
  });
});

describe("sameTransitions", () => {
  it("holds for problems of one size and fails across sizes and domains", () => {
    const sys = systems("blocksworld", 40, 3);
    const [a, b] = sys[0]!;
    expect(sameTransitions(a!, b!)).toBe(true);
    const other = sys.find((g) => g[0]!.numFacts !== a!.numFacts)![0]!;
    expect(sameTransitions(a!, other)).toBe(false);
    expect(sameTransitions(a!, systems("blocksworld-3ops", 3, 1)[0]![0]!)).toBe(false);
  });
});

describe("TransitionGraphCache", () => {
  it("builds once and reuses, remembers a system over its caps, and evicts the least recently used graph", () => {
    const bw = systems("blocksworld", 40, 3).filter((g) => g.length >= 2);
    const cache = new TransitionGraphCache({ maxStates: 50_000, maxEdges: 500_000, maxTotalWeight: 1e9 });
    const g1 = cache.graphFor(bw[0]![0]!);
    expect(g1).not.toBeNull();
    expect(cache.lastBuiltNew).toBe(true);
    expect(cache.graphFor(bw[0]![1]!)).toBe(g1);
    expect(cache.lastBuiltNew).toBe(false);
    // the cached graph keeps the transitions, not the names and facts of the problem that built it
    expect(sameTransitions(g1!.task, bw[0]![0]!)).toBe(true);
    expect([g1!.task.opNames.length, g1!.task.factNames.length, g1!.task.problem.init.length]).toEqual([0, 0, 0]);
    expect(bw[0]![0]!.opNames.length).toBeGreaterThan(0);

    const puzzles = systems("npuzzle", 2, 1)[0]!;
    const small = new TransitionGraphCache({ maxStates: 1000, maxEdges: 1e6, maxTotalWeight: 1e9 });
    expect(small.graphFor(puzzles[0]!)).toBeNull();
    expect(small.graphFor(puzzles[1]!)).toBeNull();
    expect(small.lastBuiltNew).toBe(false); // remembered: not tried again

    // room for one graph only: using a second system drops the first
    const tight = new TransitionGraphCache({ maxStates: 50_000, maxEdges: 500_000, maxTotalWeight: 1 });
    tight.graphFor(bw[0]![0]!);
    tight.graphFor(bw[1]![0]!);
    tight.graphFor(bw[0]![1]!);
    expect(tight.lastBuiltNew).toBe(true);
  });

  it("counts a fixed size per graph, so that many small graphs cannot pass the memory cap", () => {
    const small = systems("elevator", 40, 5).map((g) => g[0]!);
    expect(small.length).toBeGreaterThan(8);
    const cache = new TransitionGraphCache({ maxStates: 50_000, maxEdges: 500_000, maxTotalWeight: 4 * GRAPH_BASE_WEIGHT });
    let most = 0;
    for (const t of small) {
      expect(cache.graphFor(t)).not.toBeNull();
      most = Math.max(most, cache.size);
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
  });
});

describe("the labeller's shared graphs", () => {
  it("recurring systems get the shared graph after their first problems, with the same labels", () => {
    const group = systems("blocksworld-3ops", 30, 11)[0]!.slice(0, 8);
    expect(group.length).toBe(8);
    const used: boolean[] = [];
    group.forEach((task, i) => {
      const ctx = createLabelContext(task);
      used.push(ctx.sharedGraph);
      const o = { problemId: `p${i}`, seed: 2, samplesPerState: 10, recovery: true };
      const a = labelProblemAll(task, { ...o, context: ctx });
      const b = labelProblemAll(task, { ...o, oracleMaxStates: 1 });
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      noteLabellingTime(ctx, 1);
    });
    // two problems without, then the trials alternate, then the faster mode (all equal here: the graph)
    expect(used.slice(0, 7)).toEqual([false, false, true, false, true, false, true]);
    expect(used[7]).toBe(true);
  });
});
