import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import {
  applyOp, evaluateAxioms, explainAction, ground, hasFact, isGoal, setFact, stateToFacts, SuccessorGenerator, type GroundTask,
} from "../src/task/index.js";
import { naive } from "./task-naive.js";
import { Prng } from "../src/util/prng.js";

const FX = join(import.meta.dirname, "fixtures", "task");
const load = (d: string, p: string) => {
  const D = parseDomain(readFileSync(join(FX, d), "utf8"), d);
  const P = parseProblem(readFileSync(join(FX, p), "utf8"), p, D);
  return { D, P, task: ground(D, P), ref: naive(D, P) };
};

const CASES: Array<[string, string]> = [
  ["bw-domain.pddl", "bw-p4.pddl"],
  ["brief-domain.pddl", "brief-p1.pddl"],
  ["lamps-domain.pddl", "lamps-p1.pddl"],
  ["roads-domain.pddl", "roads-p1.pddl"],
  ["reach-domain.pddl", "reach-p1.pddl"],
];

/** Packed state of the task for a naive state (every fluent atom must be a fact of the task). */
function pack(task: GroundTask, atoms: string[]): Uint32Array {
  const idx = new Map(task.factNames.map((n, i) => [n, i]));
  const s = new Uint32Array(task.words);
  for (const a of atoms) {
    const f = idx.get(a);
    if (f === undefined) throw new Error(`reachable atom ${a} is not a fact of the task`);
    setFact(s, f);
  }
  evaluateAxioms(task, s);
  return s;
}

function derivedOf(task: GroundTask, s: Uint32Array): string[] {
  const out: string[] = [];
  for (let f = 0; f < task.numFacts; f++) if (task.factDerived[f] && task.factPredicate[f] !== "__goal" && hasFact(s, f)) out.push(task.factNames[f]!);
  return out.sort();
}

describe("successor generation equals the naive cartesian reference on random reachable states", () => {
  for (const [d, p] of CASES) {
    it(`${d} / ${p}`, () => {
      const { D, task, ref } = load(d, p);
      const gen = new SuccessorGenerator(task);
      const reused: number[] = [];
      // All type-correct groundings of every schema (object ids into task.objects).
      const groundings: Array<{ schema: number; args: number[]; name: string }> = [];
      D.actions.forEach((a, schema) => {
        let acc: number[][] = [[]];
        for (const q of a.params) {
          const objs = task.objects.map((o, i) => [o, i] as const).filter(([o]) => (q.types.length ? q.types : ["object"]).some((t) => ref.objects.get(o)!.has(t)));
          acc = acc.flatMap((x) => objs.map(([, i]) => [...x, i]));
        }
        for (const args of acc) groundings.push({ schema, args, name: "(" + [a.name, ...args.map((i) => task.objects[i])].join(" ") + ")" });
      });
      const init = pack(task, ref.fluentFacts(ref.init));
      expect(stateToFacts(task, task.init)).toEqual(ref.fluentFacts(ref.init));
      expect(Array.from(init)).toEqual(Array.from(task.init));
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 12 }), (seed, len) => {
          const rng = new Prng(seed, "walk");
          let s = ref.init;
          for (let step = 0; step <= len; step++) {
            const packed = pack(task, ref.fluentFacts(s));
            expect(stateToFacts(task, packed)).toEqual(ref.fluentFacts(s));
            expect(derivedOf(task, packed)).toEqual(ref.derivedFacts(s));
            expect(isGoal(task, packed)).toBe(ref.goal(s));
            const names = ref.applicable(s);
            const ops: number[] = [];
            gen.applicable(packed, ops);
            for (let i = 1; i < ops.length; i++) expect(ops[i]!).toBeGreaterThan(ops[i - 1]!);
            // an array reused from a state with more or fewer operators holds exactly these
            gen.applicable(packed, reused);
            expect(reused).toEqual(ops);
            expect([...new Set(ops.map((o) => task.opNames[o]!))].sort()).toEqual(names);
            // Every applicable operator leads to the naive successor.
            for (const o of ops) {
              const next = applyOp(task, packed, o);
              const want = ref.successor(s, task.opNames[o]!);
              expect(stateToFacts(task, next)).toEqual(ref.fluentFacts(want));
              expect(derivedOf(task, next)).toEqual(ref.derivedFacts(want));
            }
            // explainAction agrees on every type-correct grounding, pruned or not.
            for (const g of groundings) {
              const e = explainAction(task, packed, g.schema, g.args);
              const ok = names.includes(g.name);
              expect(e.failed.length === 0).toBe(ok);
              if (ok) expect(task.opNames[e.op]).toBe(g.name);
            }
            if (names.length === 0) break;
            s = ref.successor(s, rng.pick(names));
          }
        }),
        { numRuns: 25, seed: 42 },
      );
    });
  }

  it("in-place application equals copying application", () => {
    const { task } = load("brief-domain.pddl", "brief-p1.pddl");
    const gen = new SuccessorGenerator(task);
    const ops: number[] = [];
    gen.applicable(task.init, ops);
    for (const o of ops) {
      const copy = applyOp(task, task.init, o);
      const inPlace = Uint32Array.from(task.init);
      applyOp(task, inPlace, o, inPlace);
      expect(Array.from(inPlace)).toEqual(Array.from(copy));
    }
  });
});
