import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { builtinDomainFile, generateProblems } from "../src/generators/index.js";
import { analyseRooms } from "../src/generators/rooms.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { applyOp, ground, isApplicable, isGoal, stateKey, type GroundTask } from "../src/task/index.js";

/**
 * Explicit state space: forward BFS from the initial state, then backward reachability from
 * goal states. Returns how many reachable states cannot reach the goal (dead ends).
 */
function countDeadEnds(task: GroundTask, cap = 300_000): { states: number; deadEnds: number; initSolvable: boolean } {
  const ids = new Map<string, number>();
  const states: Uint32Array[] = [];
  const preds: number[][] = [];
  const add = (s: Uint32Array): number => {
    const k = stateKey(s);
    let id = ids.get(k);
    if (id === undefined) {
      id = states.length;
      ids.set(k, id);
      states.push(s);
      preds.push([]);
    }
    return id;
  };
  add(Uint32Array.from(task.init));
  for (let i = 0; i < states.length; i++) {
    if (states.length > cap) throw new Error("state space too large for the test");
    const s = states[i]!;
    for (let op = 0; op < task.numOps; op++) {
      if (!isApplicable(task, s, op)) continue;
      const t = add(applyOp(task, s, op));
      preds[t]!.push(i);
    }
  }
  const alive = new Uint8Array(states.length);
  const stack: number[] = [];
  states.forEach((s, i) => {
    if (isGoal(task, s)) {
      alive[i] = 1;
      stack.push(i);
    }
  });
  while (stack.length > 0) {
    const t = stack.pop()!;
    for (const p of preds[t]!)
      if (!alive[p]) {
        alive[p] = 1;
        stack.push(p);
      }
  }
  let dead = 0;
  for (let i = 0; i < states.length; i++) if (!alive[i]) dead++;
  return { states: states.length, deadEnds: dead, initSolvable: alive[0] === 1 };
}

function tasks(name: string, count: number, seed: number, sizes: Record<string, number> = {}): GroundTask[] {
  const file = builtinDomainFile(name);
  const domain = parseDomain(readFileSync(file, "utf8"), file);
  return generateProblems(name, { count, seed, sizes }).map((p) => ground(domain, parseProblem(p.text, p.name, domain)));
}

describe("dead ends are reachable", () => {
  for (const name of ["rooms", "spanner", "sokoban"]) {
    it(`${name}: most generated instances have reachable dead ends`, () => {
      const ts = tasks(name, 8, 11);
      let withDeadEnds = 0;
      for (const t of ts) {
        const r = countDeadEnds(t);
        expect(r.initSolvable).toBe(true);
        if (r.deadEnds > 0) withDeadEnds++;
      }
      // rooms and spanner are built to always have them; sokoban almost always has a corner
      expect(withDeadEnds).toBeGreaterThanOrEqual(name === "sokoban" ? 6 : 8);
    });
  }

  it("the BFS finds no dead ends where there are none (blocksworld, npuzzle)", () => {
    for (const t of tasks("blocksworld", 2, 11, { blocks: 4 })) expect(countDeadEnds(t).deadEnds).toBe(0);
    for (const t of tasks("npuzzle", 2, 11, { size: 2, depth: 4 })) expect(countDeadEnds(t).deadEnds).toBe(0);
  });

  it("analyseRooms agrees with the explicit search on small layouts", () => {
    // a corridor 0-1-2 with the agent in the middle and lights at both ends: leaving for either end strands it
    expect(analyseRooms({ rooms: 3, doors: [[0, 1], [1, 2]], lit: 0b101, start: 1 })).toEqual({ solvable: false, deadEndReachable: false });
    expect(analyseRooms({ rooms: 3, doors: [[0, 1], [1, 2]], lit: 0b100, start: 1 })).toEqual({ solvable: true, deadEndReachable: true });
    expect(analyseRooms({ rooms: 2, doors: [[0, 1]], lit: 0b10, start: 0 })).toEqual({ solvable: true, deadEndReachable: false });
  });
});
