import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortNumbers } from "../src/util/sort.js";

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
