/**
 * The learnability benchmark (bench/learn, docs/training.md): its standard-library parts, which
 * need no torch. The unit tests (tokenizer, views, baselines, metrics, bootstrap), and the
 * pipeline without the transformer on freshly generated rows (`run.py --smoke --no-model`):
 * problems, generate, the prompt's paragraphs, the baselines, `pddl2prm score` agreeing with the
 * benchmark's own first-error F1, the report. Skipped when python3 is not installed, except
 * where CI requires it (tests/python.ts).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "./temp-dir.js";
import { needPython } from "./python.js";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "dist", "src", "cli", "main.js");

describe.runIf(needPython())("bench/learn (python3, standard library)", () => {
  it("unit tests", () => {
    const r = spawnSync("python3", [join(ROOT, "bench", "learn", "test_learn.py")], { encoding: "utf8" });
    // ("OK (skipped=1)" where torch is not installed: the attention check needs it)
    expect(r.stderr).toMatch(/\nOK( \(skipped=\d+\))?\s*$/);
    expect(r.status).toBe(0);
  });

  it("the pipeline without the model: data, baselines, score, report", { timeout: 600_000 }, () => {
    const work = testTempDir("learn-bench-");
    const report = join(work, "learn.txt");
    const r = spawnSync(
      "python3",
      [join(ROOT, "bench", "learn", "run.py"), "--smoke", "--no-model", "--work", join(work, "w"), "--report", report, "--cli", `node ${CLI}`],
      { encoding: "utf8", cwd: ROOT },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const text = readFileSync(report, "utf8");
    expect(text).toMatch(/== test split \(problems held out; blocksworld \+ ferry\): \d+ problems/);
    expect(text).toMatch(/== held-out domain rooms: 3 problems/);
    for (const name of ["action prior", "previous-step prior", "majority", "random"]) expect(text).toContain(`\n${name} `);
    expect(text).toMatch(/previous-step prior - action prior\s+AP NE [+-]\d\.\d{3} \[/);
  });
});
