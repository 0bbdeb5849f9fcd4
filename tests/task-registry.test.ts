import { describe, expect, it } from "vitest";
import { hashState, StateRegistry } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";

describe("StateRegistry", () => {
  it("interns states to dense ids, finds them again and survives growth", () => {
    const words = 3;
    const reg = new StateRegistry(words, 4);
    const rng = new Prng(7, "reg");
    const states: Uint32Array[] = [];
    const seen = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      // few distinct values so duplicates are common
      const s = Uint32Array.from({ length: words }, () => rng.int(20));
      const key = Array.from(s).join(",");
      const id = reg.intern(s);
      if (seen.has(key)) expect(id).toBe(seen.get(key));
      else {
        expect(id).toBe(seen.size);
        seen.set(key, id);
        states.push(Uint32Array.from(s));
      }
      s.fill(99); // the registry kept a copy
    }
    expect(reg.size).toBe(seen.size);
    const early = reg.get(0);
    for (let id = 0; id < states.length; id++) {
      expect(Array.from(reg.get(id))).toEqual(Array.from(states[id]!));
      expect(reg.lookup(states[id]!)).toBe(id);
      const out = new Uint32Array(words);
      expect(Array.from(reg.getInto(id, out))).toEqual(Array.from(states[id]!));
    }
    expect(Array.from(early)).toEqual(Array.from(states[0]!)); // views stay valid after growth
    expect(reg.lookup(Uint32Array.from([100, 100, 100]))).toBe(-1);
  });
  it("compacts to its states and grows again, keeping ids, views and lookups", () => {
    const reg = new StateRegistry(2, 1024);
    const states: Uint32Array[] = [];
    for (let i = 0; i < 40; i++) states.push(Uint32Array.from([i, i * 7]));
    states.forEach((s, i) => expect(reg.intern(s)).toBe(i));
    const view = reg.get(3);
    reg.compact();
    reg.compact(); // idempotent
    expect(reg.size).toBe(40);
    states.forEach((s, i) => expect(reg.lookup(s)).toBe(i));
    expect(Array.from(view)).toEqual([3, 21]);
    // growing after a compaction: new ids follow on, old ones stay
    for (let i = 40; i < 300; i++) states.push(Uint32Array.from([i, i * 7]));
    states.forEach((s, i) => expect(reg.intern(s)).toBe(i));
    states.forEach((s, i) => expect(Array.from(reg.get(i))).toEqual(Array.from(s)));
    expect(reg.lookup(Uint32Array.from([1, 1]))).toBe(-1);
    // an empty registry compacts and grows too
    const empty = new StateRegistry(1, 1024);
    empty.compact();
    for (let i = 0; i < 50; i++) expect(empty.intern(Uint32Array.from([i]))).toBe(i);
  });

  it("hashes deterministically and spreads similar states", () => {
    const a = Uint32Array.from([1, 2, 3]);
    expect(hashState(a)).toBe(hashState(Uint32Array.from([1, 2, 3])));
    const hs = new Set<number>();
    for (let i = 0; i < 1000; i++) hs.add(hashState(Uint32Array.from([i, 0])) & 1023);
    expect(hs.size).toBeGreaterThan(500);
  });
  it("finds the states matching positive and negative facts (bit 31, several words, facts sharing a word)", () => {
    const words = 3;
    const reg = new StateRegistry(words, 4);
    const rng = new Prng(11, "matching");
    for (let i = 0; i < 3000; i++) reg.intern(Uint32Array.from({ length: words }, () => (rng.nextU32() & rng.nextU32()) >>> 0));
    const holds = (id: number, f: number): boolean => ((reg.get(id)[f >>> 5]! >>> (f & 31)) & 1) === 1;
    for (let t = 0; t < 200; t++) {
      const pick = (n: number): number[] => Array.from({ length: n }, () => (rng.int(3) === 0 ? 31 + 32 * rng.int(words) : rng.int(32 * words)));
      const pos = pick(rng.int(4));
      const neg = pick(rng.int(3)).filter((f) => !pos.includes(f));
      const want: number[] = [];
      for (let id = 0; id < reg.size; id++) if (pos.every((f) => holds(id, f)) && neg.every((f) => !holds(id, f))) want.push(id);
      expect(Array.from(reg.matching(Int32Array.from(pos), Int32Array.from(neg)))).toEqual(want);
    }
  });
});
