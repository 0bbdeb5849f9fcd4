import { describe, expect, it } from "vitest";
import { benchFlagProblem } from "../bench/args.js";

describe("bench scripts' flag check", () => {
  const flags = { values: ["--scale", "--out"], switches: ["--json"] };
  it("accepts the flags a script reads, with values as the next argument or after =", () => {
    expect(benchFlagProblem([], flags)).toBeNull();
    expect(benchFlagProblem(["--scale", "2", "--json", "--out=o"], flags)).toBeNull();
    expect(benchFlagProblem(["--out", "-dir-with-dash"], flags)).toBeNull();
  });
  it("names an unknown flag, a stray argument and a value flag without its value", () => {
    expect(benchFlagProblem(["--scal", "2"], flags)).toBe("unknown flag --scal");
    expect(benchFlagProblem(["--json", "extra"], flags)).toBe("unexpected argument 'extra'");
    expect(benchFlagProblem(["--scale"], flags)).toBe("--scale needs a value");
    expect(benchFlagProblem(["--scale", "--json"], flags)).toBe("--scale needs a value");
    expect(benchFlagProblem(["--json=1"], flags)).toBe("unknown flag --json=1");
  });
});
