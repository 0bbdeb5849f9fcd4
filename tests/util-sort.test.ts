import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByKey, sortNumbers } from "../src/util/sort.js";

describe("sortNumbers", () => {
  it("sorts in place like the built-in numeric sort, short and long arrays alike", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 1000 }), { maxLength: 60 }), fc.option(fc.nat(64)), (xs, max) => {
        const want = [...xs].sort((a, b) => a - b);
        const ys = [...xs];
        expect(max === null ? sortNumbers(ys) : sortNumbers(ys, max)).toBe(ys);
        expect(ys).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });
});

describe("sortByKey", () => {
  it("sorts in place like the built-in stable sort by key, ties kept in order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 20 }), { maxLength: 40 }), fc.array(fc.nat(39), { maxLength: 60 }), fc.option(fc.nat(64)), (keys, xs0, max) => {
        const key = Array.from({ length: 40 }, (_, i) => keys[i % Math.max(1, keys.length)] ?? 0);
        const want = [...xs0].sort((a, b) => key[a]! - key[b]!);
        const ys = [...xs0];
        expect(max === null ? sortByKey(ys, key) : sortByKey(ys, key, max)).toBe(ys);
        expect(ys).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });
});
