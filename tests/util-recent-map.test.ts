import { describe, expect, it } from "vitest";
import { RecentMap } from "../src/util/recent-map.js";

describe("RecentMap", () => {
  it("keeps what is used within `limit` new keys and never holds more than 2 * limit", () => {
    const m = new RecentMap<number, string>(4);
    for (let i = 0; i < 100; i++) {
      m.set(i, `v${i}`);
      expect(m.get(0)).toBe("v0"); // used after every new key: never forgotten
      expect(m.size).toBeLessThanOrEqual(8);
    }
    expect(m.get(50)).toBeUndefined(); // not used since 49 newer keys came
    expect(m.get(99)).toBe("v99");
  });

  it("agrees with a plain Map on the keys it still holds (random operations)", () => {
    const m = new RecentMap<number, number>(16);
    const ref = new Map<number, number>();
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let step = 0; step < 5000; step++) {
      const k = rnd(60);
      if (rnd(2) === 0) {
        m.set(k, step);
        ref.set(k, step);
      } else {
        const v = m.get(k);
        if (v !== undefined) expect(v).toBe(ref.get(k));
      }
      expect(m.size).toBeLessThanOrEqual(32);
    }
  });

  it("keeps undefined values, updates in place, clears, and refuses a limit below 1", () => {
    const m = new RecentMap<string, number | undefined>(2);
    m.set("a", undefined);
    m.set("b", 1).set("b", 2);
    expect(m.get("b")).toBe(2);
    expect(m.size).toBe(2);
    m.clear();
    expect(m.size).toBe(0);
    expect(m.get("b")).toBeUndefined();
    expect(() => new RecentMap(0)).toThrow(RangeError);
  });
});
