/**
 * `pddl2prm audit` end to end: the default output of every format passes, the dataset card
 * carries the headline, a real leak (`--non-executable any`) fails with exit 1, flags and bad
 * input exit as the CLI contract says.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMATS as ALL_FORMATS } from "../src/dataset/formats.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { findOperator, ground } from "../src/task/index.js";
import { reseal } from "./reseal.js";

/** rl rows are prompts without steps or labels: generate runs no audit on them (docs/rl.md). */
const FORMATS = ALL_FORMATS.filter((f) => f !== "rl");

const ROOT = resolve(__dirname, "..");
const CLI = join(ROOT, "dist", "src", "cli", "main.js");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-cli-audit-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Run the CLI without blocking the test worker (long runs in the full suite). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd: tmp });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("close", (code) => done({ code, stdout, stderr }));
  });
}

const BASE = ["generate", "--domain", "blocksworld,hanoi,ferry,spanner", "--count", "8", "--seed", "3", "--workers", "1", "--quiet"];
const outs: Record<string, string> = {};
const errors: Record<string, string> = {};

beforeAll(async () => {
  for (const f of FORMATS) {
    const dir = join(tmp, f);
    const r = await cli([...BASE, "--format", f, "--out", dir]);
    if (r.code === 0) outs[f] = dir;
    else errors[f] = r.stderr;
  }
}, 300_000);

function need(f: string): string {
  const d = outs[f];
  if (d === undefined) throw new Error(`generate --format ${f} failed: ${errors[f]}`);
  return d;
}

describe("pddl2prm audit", () => {
  it.each(FORMATS.map((f) => [f]))("%s: the default output passes; the card reports the headline", async (f) => {
    const dir = need(f);
    const r = await cli(["audit", dir, "--json"]);
    const report = JSON.parse(r.stdout) as { pass: boolean; format: string; checks: { name: string; pass: boolean }[]; actions_parsed: { asked: number; failed: number } | null };
    expect(report.checks.filter((c) => !c.pass), f).toEqual([]);
    expect(report.pass).toBe(true);
    expect(r.code).toBe(0);
    expect(report.format).toBe(f);
    // formats whose rows carry only text: every step parses back to its action
    if (["trl", "openrlhf", "math-shepherd", "paper-prm"].includes(f)) expect(report.actions_parsed!.failed).toBe(0);
    else expect(report.actions_parsed).toBeNull();
    const card = readFileSync(join(dir, "README.md"), "utf8");
    // an acp card says what its audit reads in terms of questions (src/dataset/card.ts auditNote)
    const what = f === "acp" ? "how well a question's words, or an option's form, give its answer away against its kind and item, reading no state" : "surface rules and classifiers that read no state";
    expect(card).toContain(`## Shortcut audit\n\n\`pddl2prm audit\` (${what}): pass: `);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { audit: { pass: boolean } };
    expect(manifest.audit.pass).toBe(true);
  });

  it("prints a table; the same data gives the same figures", async () => {
    const a = await cli(["audit", need("native")]);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^audit of .*: format native, \d+ rows/);
    expect(a.stdout).toMatch(/candidate position\s+all\s+auc/);
    expect(a.stdout).toMatch(/audit: pass\n$/);
    expect((await cli(["audit", need("native")])).stdout).toBe(a.stdout);
  });

  it("--non-executable any: candidates naming one object twice are flagged, exit 1", async () => {
    const dir = join(tmp, "any");
    const g = await cli(["generate", "--domain", "blocksworld", "--count", "10", "--seed", "3", "--workers", "1", "--quiet", "--samples-per-state", "30", "--non-executable", "any", "--out", dir]);
    expect(g.code, g.stderr).toBe(0);
    const r = await cli(["audit", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL repeated object \(rows of one label\) \[all\]: 1\.000/);
    expect(r.stdout).toMatch(/audit: FAIL\n$/);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/## Shortcut audit\n\n.*: FAIL \(/);
  });

  it("pairs and trajectories: a rejected step that a fixed fact rules out fails the audit, exit 1", async () => {
    for (const f of ["pairs", "trajectories"]) {
      const clean = await cli(["audit", outs[f]!]);
      expect(clean.stdout).toMatch(/ok +rejected steps a fixed fact rules out \(count\) \[all\]: 0\b/);
      // plant: one rejected hanoi step moves a disk onto a smaller one (the grounder prunes it)
      const dir = join(tmp, `${f}-fixed`);
      cpSync(outs[f]!, dir, { recursive: true });
      const shard = readdirSync(join(dir, "data")).find((n) => n.startsWith("train-"))!;
      const lines = readFileSync(join(dir, "data", shard), "utf8").trim().split("\n");
      const at = lines.findIndex((l) => (JSON.parse(l) as { domain: string }).domain === "hanoi");
      const row = JSON.parse(lines[at]!) as Record<string, unknown>;
      const d = parseDomain(readFileSync(join(dir, "pddl", "hanoi", "domain.pddl"), "utf8"), "domain.pddl");
      const task = ground(d, parseProblem(readFileSync(join(dir, "pddl", "hanoi", `${String(row["problem"])}.pddl`), "utf8"), "p.pddl", d));
      const disks = task.objects.filter((o) => o.startsWith("d"));
      const bad = disks.flatMap((a) => disks.map((b) => [a, b])).find(([a, b]) => a !== b && findOperator(task, 0, [task.objects.indexOf(a!), task.objects.indexOf(b!), task.objects.indexOf(b!)]).length === 0);
      expect(bad).toBeDefined();
      const act = `(${task.domain.actions[0]!.name} ${bad![0]} ${bad![1]} ${bad![1]})`;
      if (f === "pairs") row["rejected_action"] = act;
      else row["rejected_actions"] = [...(row["rejected_actions"] as string[]), act];
      lines[at] = JSON.stringify(row);
      writeFileSync(join(dir, "data", shard), lines.join("\n") + "\n");
      // the folder refuses an edited shard (issue 50) until its records say so
      const refused = await cli(["audit", dir]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`data/${shard.replace(/\./g, "\\.")}: (\\d+ bytes, the completion records say \\d+|changed)`));
      reseal(dir);
      const r = await cli(["audit", dir]);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toMatch(/FAIL rejected steps a fixed fact rules out \(count\) \[all\]: 1\b/);
    }
  });

  it("--max-gap and --max-rule gate; bad flags exit 2; a folder that is not a dataset exits 1", async () => {
    // an inserted inverse acts on the objects of the step before it: a rule, not a default check
    const strict = await cli(["audit", need("trajectories"), "--max-rule", "0.6"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/FAIL same objects as previous step \(pick\), --max-rule \[inverse\]/);
    expect((await cli(["audit", need("native"), "--max-gap", "0.5"])).code).toBe(0);
    const bad = await cli(["audit", need("native"), "--max-gap", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-gap expects a number between 0 and 1, got 'lots'/);
    const none = await cli(["audit", join(tmp, "nothing-here")]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^pddl2prm: error: .*nothing-here: no such folder\n$/);
    mkdirSync(join(tmp, "plain"), { recursive: true });
    writeFileSync(join(tmp, "plain", "x.txt"), "x");
    const plain = await cli(["audit", join(tmp, "plain")]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/not a pddl2prm dataset folder/);
  });
});
