import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NativeRowSchema } from "../src/dataset/row.js";
import { CLI, cliRunner } from "./cli-run.js";
import { GRIPPER_DOMAIN } from "./gripper-helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-gen-"));

// Asynchronous: back-to-back synchronous runs starve vitest's worker RPC in the full suite. A
// test of several runs may take minutes on a loaded machine.
const run = cliRunner(tmp);
vi.setConfig({ testTimeout: 300_000 });

function shardLines(out: string): string[] {
  const dir = join(out, "data");
  const lines: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!/\.jsonl(\.gz)?$/.test(name)) continue;
    const buf = readFileSync(join(dir, name));
    const text = name.endsWith(".gz") ? gunzipSync(buf).toString("utf8") : buf.toString("utf8");
    lines.push(...text.split("\n").filter((l) => l.length > 0));
  }
  return lines;
}

function dataBytes(out: string): Record<string, string> {
  const dir = join(out, "data");
  const r: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) r[name] = createHash("sha256").update(readFileSync(join(dir, name))).digest("hex");
  return r;
}

// A small user domain and problems, so these tests need nothing but the package.
const DOMAIN = GRIPPER_DOMAIN;

function problem(name: string, balls: number, goalRoom: string): string {
  const bs = Array.from({ length: balls }, (_, i) => `b${i + 1}`);
  return `(define (problem ${name}) (:domain mini-gripper)
  (:objects ra rb rc - room ${bs.join(" ")} - ball)
  (:init (at-robby ra) (free) ${bs.map((b, i) => `(at ${b} ${i % 2 ? "ra" : "rb"})`).join(" ")})
  (:goal (and ${bs.map((b) => `(at ${b} ${goalRoom})`).join(" ")})))`;
}

let domainFile = "";
let probDir = "";

beforeAll(() => {
  domainFile = join(tmp, "domain.pddl");
  writeFileSync(domainFile, DOMAIN);
  probDir = join(tmp, "probs");
  mkdirSync(probDir);
  const specs: [number, string][] = [[1, "rc"], [2, "rc"], [2, "ra"], [3, "rb"], [1, "ra"], [3, "rc"], [2, "rb"]];
  specs.forEach(([n, g], i) => writeFileSync(join(probDir, `p${String(i + 1).padStart(2, "0")}.pddl`), problem(`p${i + 1}`, n, g)));
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const base = () => ["generate", "--domain-file", domainFile, "--problems", probDir, "--quiet", "--seed", "3"];

describe("generate: output folder", () => {
  it("writes shards, manifest, card, stats and PDDL that agree with each other", async () => {
    const out = join(tmp, "o1");
    const r = await run([...base(), "--out", out, "--workers", "1"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    const lines = shardLines(out);
    expect(lines.length).toBeGreaterThan(20);
    expect(manifest.rows).toBe(lines.length);
    const cats: Record<string, number> = {};
    for (const l of lines) {
      const row = NativeRowSchema.parse(JSON.parse(l));
      cats[row.category] = (cats[row.category] ?? 0) + 1;
      expect(row.labels[row.labels.length - 1]).toBe(
        { "non-executable": 0, "dead-end": 0.25, backtracking: 0.5, suboptimal: 0.75, optimal: 1 }[row.category],
      );
      expect(existsSync(join(out, "pddl", "mini-gripper", `${row.problem}.pddl`))).toBe(true);
    }
    // labels are written as floats (1.0, not 1) so every shard loads as float64
    expect(lines.every((l) => !/"labels":\[[^\]]*\b1(?![.\d])/.test(l))).toBe(true);
    for (const [k, v] of Object.entries(cats)) expect(manifest.counts.by_category[k]).toBe(v);
    for (const s of manifest.shards) {
      const buf = readFileSync(join(out, s.path));
      expect(buf.length).toBe(s.bytes);
      expect(createHash("sha256").update(buf).digest("hex")).toBe(s.sha256);
    }
    const card = readFileSync(join(out, "README.md"), "utf8");
    expect(card).toMatch(/^---\n[\s\S]*configs:[\s\S]*dataset_info:[\s\S]*sequence: float64[\s\S]*\n---\n/);
    const csv = readFileSync(join(out, "stats.csv"), "utf8").trim().split("\n");
    expect(csv[0]).toBe("domain,split,problems,skipped,rows,mean_plan_length,non-executable,dead-end,backtracking,suboptimal,optimal");
    expect(csv.at(-1)!.startsWith(`all,all,7,0,${lines.length},`)).toBe(true);
    expect(existsSync(join(out, "pddl", "mini-gripper", "domain.pddl"))).toBe(true);

    const st = await run(["stats", out, "--json"]);
    expect(st.code).toBe(0);
    expect(JSON.parse(st.stdout).rows).toBe(lines.length);
  });

  it("gives the same bytes for --workers 1 and --workers 2, and for gzip twice", async () => {
    const a = join(tmp, "w1");
    const b = join(tmp, "w2");
    expect((await run([...base(), "--out", a, "--workers", "1"])).code).toBe(0);
    expect((await run([...base(), "--out", b, "--workers", "2"])).code).toBe(0);
    expect(dataBytes(b)).toEqual(dataBytes(a));
    expect(readFileSync(join(b, "manifest.json"), "utf8")).toBe(readFileSync(join(a, "manifest.json"), "utf8"));
    const g1 = join(tmp, "g1");
    const g2 = join(tmp, "g2");
    expect((await run([...base(), "--out", g1, "--gzip", "--workers", "2"])).code).toBe(0);
    expect((await run([...base(), "--out", g2, "--gzip", "--workers", "1"])).code).toBe(0);
    expect(dataBytes(g2)).toEqual(dataBytes(g1));
    expect(shardLines(g1)).toEqual(shardLines(a));
  });

  it("splits across --world 3 ranks whose merged rows equal the single run", async () => {
    const single = join(tmp, "w1");
    if (!existsSync(single)) expect((await run([...base(), "--out", single, "--workers", "1"])).code).toBe(0);
    const out = join(tmp, "ranks");
    for (const rank of [2, 0]) {
      const r = await run([...base(), "--out", out, "--world", "3", "--rank", String(rank), "--workers", "1"]);
      expect(r.code).toBe(0);
      expect(existsSync(join(out, "manifest.json"))).toBe(false);
    }
    const early = await run(["merge", out]);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/ranks not complete yet: 1/);
    // the last rank comes from the scheduler's environment, as on Slurm
    expect((await run([...base(), "--out", out, "--world", "3", "--workers", "1"], { SLURM_ARRAY_TASK_ID: "1" })).code).toBe(0);
    expect(existsSync(join(out, "manifest.json"))).toBe(true);
    expect((await run(["merge", out, "--verify"])).code).toBe(0);
    expect(shardLines(out).sort()).toEqual(shardLines(single).sort());
    const m1 = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    const m0 = JSON.parse(readFileSync(join(single, "manifest.json"), "utf8"));
    expect(m1.counts.by_category).toEqual(m0.counts.by_category);
    expect(m1.counts.by_split).toEqual(m0.counts.by_split);
  });

  it("re-running a finished run does nothing, and other settings are refused without --force", async () => {
    const out = join(tmp, "w1");
    const before = dataBytes(out);
    const again = await run([...base(), "--out", out, "--workers", "1"]);
    expect(again.code).toBe(0);
    expect(dataBytes(out)).toEqual(before);
    const other = await run([...base(), "--out", out, "--samples-per-state", "2"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/other settings/);
  });
});

describe("generate: crash and resume", () => {
  it("a run killed with SIGKILL and restarted equals an uninterrupted run", async () => {
    const ref = join(tmp, "w1");
    if (!existsSync(ref)) expect((await run([...base(), "--out", ref, "--workers", "1"])).code).toBe(0);
    const out = join(tmp, "killed");
    const child = spawn(process.execPath, [CLI, ...base(), "--out", out, "--workers", "1"], { cwd: tmp, stdio: "ignore" });
    // Kill as soon as the rank has started writing its temporary shards.
    const started = Date.now();
    await new Promise<void>((res) => {
      const poll = setInterval(() => {
        const data = join(out, "data");
        const busy = existsSync(data) && readdirSync(data).some((n) => n.includes(".tmp"));
        if (busy || Date.now() - started > 20_000) {
          clearInterval(poll);
          child.kill("SIGKILL");
          res();
        }
      }, 2);
    });
    await new Promise((res) => child.on("exit", res));
    expect(existsSync(join(out, "completions", "00000"))).toBe(false);
    expect(existsSync(join(out, "manifest.json"))).toBe(false);
    const r = await run([...base(), "--out", out, "--workers", "1"]);
    expect(r.code).toBe(0);
    expect(dataBytes(out)).toEqual(dataBytes(ref));
    expect(readdirSync(join(out, "data")).some((n) => n.includes(".tmp"))).toBe(false);
  });
});

describe("generate: formats", () => {
  it("writes trl, openrlhf and math-shepherd rows derived from the same labels", async () => {
    const native = shardLines(join(tmp, "w1")).map((l) => JSON.parse(l));
    const byId = new Map(native.map((r) => [r.id, r]));
    for (const format of ["trl", "openrlhf", "math-shepherd"]) {
      const out = join(tmp, `f-${format}`);
      const r = await run([...base(), "--out", out, "--format", format, "--threshold", "0.75", "--workers", "2"]);
      expect(r.code).toBe(0);
      const rows = shardLines(out).map((l) => JSON.parse(l));
      expect(rows.length).toBe(native.length);
      for (const row of rows) {
        const n = byId.get(row.id)!;
        expect(n).toBeDefined();
        if (format === "trl") {
          expect(row.prompt).toBe(`${n.prompt}\n`);
          expect(row.completions).toEqual(n.completions);
          expect(row.labels).toEqual(n.labels.map((x: number) => x >= 0.75));
          expect(row.rewards).toEqual(n.labels);
        } else if (format === "openrlhf") {
          expect(row.value).toEqual(n.labels.map((x: number) => (x >= 0.75 ? "+" : "-")));
          expect(row.rewards).toEqual(n.labels);
          expect(row.input.split("ки").length - 1).toBe(n.completions.length);
        } else {
          expect(row.task).toBe(n.domain);
          expect(row.input.split("ки").length - 1).toBe(n.completions.length);
          const marks = row.label.match(/ [+-](?=\n|$)/g).map((m: string) => m.trim());
          expect(marks).toEqual(n.labels.map((x: number) => (x >= 0.75 ? "+" : "-")));
        }
      }
    }
  });
});

describe("generate: bad input", () => {
  it("rejects bad flags with exit 2 naming the flag", async () => {
    const cases: [string[], RegExp][] = [
      [["generate"], /--domain/],
      [["generate", "--domain", "blocksworld", "--format", "csv"], /--format/],
      [["generate", "--domain", "blocksworld", "--samples-per-state", "x"], /--samples-per-state/],
      [["generate", "--domain", "blocksworld", "--threshold", "2"], /--threshold/],
      [["generate", "--domain", "blocksworld", "--world", "2", "--rank", "2"], /--rank/],
      [["generate", "--domain-file", "x.pddl"], /--problems/],
    ];
    for (const [args, re] of cases) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("rejects an unknown domain name (exit 2, as a missing --domain), a missing folder and bad PDDL (exit 1), with no partial output", async () => {
    const out = join(tmp, "bad");
    const unknown = await run(["generate", "--domain", "no-such-domain", "--out", out]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown domain 'no-such-domain'/);
    expect((await run(["generate", "--out", out])).code).toBe(2);
    const missing = await run(["generate", "--domain-file", domainFile, "--problems", join(tmp, "nope"), "--out", out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope/);
    const badDir = join(tmp, "badprobs");
    mkdirSync(badDir);
    writeFileSync(join(badDir, "p01.pddl"), problem("p01", 1, "rc"));
    writeFileSync(join(badDir, "p02.pddl"), "(define (problem p02) (:domain mini-gripper)\n  (:objects ra - room)\n  (:init (at-robby rz))\n  (:goal (free)))");
    const bad = await run(["generate", "--domain-file", domainFile, "--problems", badDir, "--out", out, "--workers", "2"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/p02\.pddl:3:\d+: error: .*rz/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const shards = existsSync(join(out, "data")) ? readdirSync(join(out, "data")) : [];
    expect(shards).toEqual([]);
  });
});
