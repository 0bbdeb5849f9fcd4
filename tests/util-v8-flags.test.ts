import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { boundHeapGrowth, flagGiven, HEAP_FLAGS, JIT_FLAGS, tuneJitForLabelling } from "../src/util/v8-flags.js";

describe("V8 flags of labelling runs", () => {
  it("names flags this node's V8 knows (setFlagsFromString ignores unknown ones silently)", () => {
    const known = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    for (const [name, flag] of [...JIT_FLAGS, ...HEAP_FLAGS]) {
      expect(known).toContain(`--${name} `);
      expect(flag.replace(/^--no-/, "--").split("=")[0]).toBe(`--${name}`);
    }
  });

  it("applies once and leaves results alone", () => {
    tuneJitForLabelling();
    tuneJitForLabelling();
    boundHeapGrowth();
    boundHeapGrowth();
    expect([3, 1, 2].map((x) => x * 2).sort((a, b) => a - b)).toEqual([2, 4, 6]);
  });

  it("leaves a flag given to node alone, in either spelling", () => {
    expect(flagGiven("turbo-inline-array-builtins", ["--turbo_inline_array_builtins"])).toBe(true);
    expect(flagGiven("turbo-inline-array-builtins", ["--no-turbo-inline-array-builtins"])).toBe(true);
    expect(flagGiven("max-inlined-bytecode-size-cumulative", ["--max-inlined-bytecode-size-cumulative=920"])).toBe(true);
    expect(flagGiven("max-inlined-bytecode-size-cumulative", ["--max-inlined-bytecode-size=920", "--inspect"])).toBe(false);
  });
});
