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
  it("hashes deterministically and spreads similar states", () => {
    const a = Uint32Array.from([1, 2, 3]);
    expect(hashState(a)).toBe(hashState(Uint32Array.from([1, 2, 3])));
    const hs = new Set<number>();
    for (let i = 0; i < 1000; i++) hs.add(hashState(Uint32Array.from([i, 0])) & 1023);
    expect(hs.size).toBeGreaterThan(500);
  });
});
