import type { Prng } from "../util/prng.js";
import { UserError } from "../pddl/errors.js";
import { atom, draw, sizeError, type DomainGenerator, type ProblemSpec } from "./common.js";

const TOO_BIG = new Error("layout too large to analyse");

interface Layout {
  rooms: number;
  doors: [number, number][];
  lit: number;
  start: number;
}

/**
 * Explicit check of a layout over states (room, broken-door mask, lit mask): whether the
 * initial state is solvable and whether some reachable state is a dead end. Null when the
 * layout is too large to analyse within `budget` states (then the planner decides).
 */
export function analyseRooms(l: Layout, budget = 200_000): { solvable: boolean; deadEndReachable: boolean } | null {
  const adj: [door: number, to: number][][] = Array.from({ length: l.rooms }, () => []);
  l.doors.forEach(([a, b], i) => {
    adj[a]!.push([i, b]);
    adj[b]!.push([i, a]);
  });
  const memo = new Map<string, boolean>();
  // turning a light off never hurts, so solvability is decided with the light switched off
  const solvable = (pos: number, used: number, lit: number): boolean => {
    lit &= ~(1 << pos);
    if (lit === 0) return true;
    const key = `${pos},${used},${lit}`;
    const m = memo.get(key);
    if (m !== undefined) return m;
    if (memo.size + seen.size > budget) throw TOO_BIG;
    let ok = false;
    for (const [d, to] of adj[pos]!) if (!(used & (1 << d)) && solvable(to, used | (1 << d), lit)) ok = true;
    memo.set(key, ok);
    return ok;
  };
  let dead = false;
  const seen = new Set<string>();
  const explore = (pos: number, used: number, lit: number): void => {
    const key = `${pos},${used},${lit}`;
    if (dead || seen.has(key)) return;
    seen.add(key);
    if (!solvable(pos, used, lit)) {
      dead = true;
      return;
    }
    if (lit & (1 << pos)) explore(pos, used, lit & ~(1 << pos));
    for (const [d, to] of adj[pos]!) if (!(used & (1 << d))) explore(to, used | (1 << d), lit);
  };
  try {
    const ok0 = solvable(l.start, 0, l.lit);
    if (ok0) explore(l.start, 0, l.lit);
    return { solvable: ok0, deadEndReachable: dead };
  } catch (e) {
    if (e === TOO_BIG) return null;
    throw e;
  }
}

function randomLayout(prng: Prng, rooms: number, doors: number, lights: number): Layout {
  const edges: [number, number][] = [];
  const has = (a: number, b: number): boolean => edges.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  // a random spanning tree keeps every room reachable, then extra doors between random pairs
  const order = prng.shuffle(Array.from({ length: rooms }, (_, i) => i));
  for (let i = 1; i < rooms; i++) edges.push([order[prng.int(i)]!, order[i]!]);
  const pairs: [number, number][] = [];
  for (let a = 0; a < rooms; a++) for (let b = a + 1; b < rooms; b++) if (!has(a, b)) pairs.push([a, b]);
  prng.shuffle(pairs);
  edges.push(...pairs.slice(0, doors - (rooms - 1)));
  const start = prng.int(rooms);
  let lit = 0;
  for (const r of prng.shuffle(Array.from({ length: rooms }, (_, i) => i)).slice(0, lights)) lit |= 1 << r;
  return { rooms, doors: edges, lit, start };
}

/**
 * The layout of a problem drawn by `rooms.build` (rooms named room1..roomN, one agent, each
 * door listed both ways), or null for a problem not of that form.
 */
export function layoutOf(spec: ProblemSpec): Layout | null {
  const rooms = spec.objects.filter(([, type]) => type === "room").length;
  if (rooms === 0 || rooms > 30 || spec.objects.length !== rooms + 1) return null;
  const index = (name: string | undefined): number => {
    const m = /^room(\d+)$/.exec(name ?? "");
    const i = m === null ? -1 : Number(m[1]) - 1;
    return i >= 0 && i < rooms ? i : -1;
  };
  let start = -1;
  let lit = 0;
  const doors: [number, number][] = [];
  for (const a of spec.init) {
    const [pred, ...args] = a.slice(1, -1).split(" ");
    if (pred === "at") start = index(args[1]);
    else if (pred === "on") {
      const r = index(args[0]);
      if (r < 0) return null;
      lit |= 1 << r;
    } else if (pred === "door-intact") {
      const [x, y] = [index(args[0]), index(args[1])];
      if (x < 0 || y < 0) return null;
      if (x < y) doors.push([x, y]);
    } else if (pred !== "door") return null;
  }
  // the goal the generator writes: every lit room dark
  let goal = 0;
  for (const g of spec.goal) {
    const r = index(/^\(not \(on (\S+)\)\)$/.exec(g)?.[1]);
    if (r < 0) return null;
    goal |= 1 << r;
  }
  if (start < 0 || lit === 0 || goal !== lit || doors.length > 30) return null;
  return { rooms, doors, lit, start };
}

/**
 * Rooms: an agent must switch off every light; each door breaks once used. Layouts are
 * drawn until one is solvable and has a reachable dead end (leaving a lit room for good).
 */
export const rooms: DomainGenerator = {
  name: "rooms",
  description: "An agent switches off every light; doors break once walked through, so routes can strand it",
  defaultSamplesPerState: 6,
  sizeOptions: [
    { flag: "rooms", description: "number of rooms", default: "5-7 (drawn per problem)", min: 2, max: 16 },
    { flag: "doors", description: "number of doors (rooms-1 .. rooms+1 by default; a spanning tree plus extras)", default: "rooms-1 to rooms+1 (drawn per problem)", min: 1, max: 30 },
    { flag: "lights", description: "number of rooms whose light is on", default: "2-4 (drawn per problem)", min: 1, max: 16 },
  ],
  // the layout's exact analysis (the abstract state space of room, broken doors and lit rooms),
  // where it is small enough to analyse; larger ones go to the planner
  solvable: (spec) => {
    const l = layoutOf(spec);
    return l !== null && analyseRooms(l)?.solvable === true;
  },
  build(prng, sizes) {
    let nr = draw(prng, sizes, "rooms", 5, 7);
    const extra = prng.range(0, 2);
    const given = sizes["doors"];
    // a drawn room count fits given doors and lights
    if (sizes["rooms"] === undefined && given !== undefined) {
      while (nr > given + 1) nr--;
      while ((nr * (nr - 1)) / 2 < given) nr++;
    }
    if (sizes["rooms"] === undefined && sizes["lights"] !== undefined) nr = Math.max(nr, sizes["lights"]);
    const nd = given ?? nr - 1 + extra;
    const ld = draw(prng, sizes, "lights", 2, 4);
    const nlights = sizes["lights"] !== undefined ? ld : Math.min(ld, nr);
    if (nd < nr - 1) sizeError("doors", `must be at least rooms-1 (${nr - 1}) to connect ${nr} rooms`);
    if (nd > (nr * (nr - 1)) / 2) sizeError("doors", `must be at most ${(nr * (nr - 1)) / 2} for ${nr} rooms`);
    if (nlights > nr) sizeError("lights", `must be at most the number of rooms (${nr})`);
    // prefer a solvable layout with a reachable dead end; else the first solvable one
    let layout: Layout | null = null;
    let fallback: Layout | null = null;
    for (let attempt = 0; attempt < 200 && layout === null; attempt++) {
      const l = randomLayout(prng, nr, nd, nlights);
      const a = analyseRooms(l);
      if (a === null || (a.solvable && a.deadEndReachable)) layout = l;
      else if (a.solvable) fallback ??= l;
    }
    layout ??= fallback;
    if (layout === null) throw new UserError(`rooms: no solvable layout with ${nr} rooms, ${nd} doors and ${nlights} lights`);
    const names = Array.from({ length: nr }, (_, i) => `room${i + 1}`);
    const init: string[] = [atom("at", "agent1", names[layout.start]!)];
    for (let r = 0; r < nr; r++) if (layout.lit & (1 << r)) init.push(atom("on", names[r]!));
    const doors = layout.doors.map(([a, b]) => [names[a]!, names[b]!] as const);
    for (const [x, y] of doors) init.push(atom("door-intact", x, y), atom("door-intact", y, x));
    for (const [x, y] of doors) init.push(atom("door", x, y), atom("door", y, x));
    return {
      objects: [["agent1", "agent"] as const, ...names.map((r) => [r, "room"] as const)],
      init,
      // every light off; rooms that start dark stay dark, so only the lit ones are listed
      goal: names.filter((_, r) => layout.lit & (1 << r)).map((r) => `(not ${atom("on", r)})`),
    };
  },
};
