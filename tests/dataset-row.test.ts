import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { stringifyWithFloats } from "../src/dataset/row.js";
import { formatFloat } from "../src/products/layout.js";
import { splitOf } from "../src/dataset/problems.js";

describe("float formatting", () => {
  it("prints integers with a decimal point and keeps other values", () => {
    expect(formatFloat(1)).toBe("1.0");
    expect(formatFloat(0)).toBe("0.0");
    expect(formatFloat(0.25)).toBe("0.25");
    const s = stringifyWithFloats({ id: "a", text: 'x "labels":[1] y', labels: [1, 0.5, 0], n: 3 }, ["labels"]);
    expect(s).toBe('{"id":"a","text":"x \\"labels\\":[1] y","labels":[1.0,0.5,0.0],"n":3}');
    expect(stringifyWithFloats({ reward: 1, b: 2 }, ["reward"])).toBe('{"reward":1.0,"b":2}');
  });

  it("is JSON.stringify up to the float fields (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.constantFrom(0, 0.25, 0.5, 0.75, 1)), fc.array(fc.string()), (t, labels, comps) => {
        const obj = { prompt: t, completions: comps, labels, tail: { labels: "x" } };
        const s = stringifyWithFloats(obj, ["labels"]);
        expect(JSON.parse(s)).toEqual(obj);
        expect(s).toContain(`"labels":[${labels.map(formatFloat).join(",")}]`);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});

describe("splits", () => {
  it("are about 85/5/10 by problem hash, and a held-out domain goes to test", () => {
    const counts = { train: 0, validation: 0, test: 0 };
    for (let i = 0; i < 4000; i++) counts[splitOf("d", `p${i}`)]++;
    expect(counts.train / 4000).toBeGreaterThan(0.82);
    expect(counts.train / 4000).toBeLessThan(0.88);
    expect(counts.validation / 4000).toBeGreaterThan(0.03);
    expect(counts.validation / 4000).toBeLessThan(0.07);
    expect(splitOf("rooms", "p0001", "rooms")).toBe("test");
    expect(splitOf("d", "p7")).toBe(splitOf("d", "p7"));
  });
});
