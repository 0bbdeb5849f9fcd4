/**
 * bench/ipc: the whole IPC collection, side by side with Fast Downward.
 *
 *   npm run bench:ipc -- --fd PATH/fast-downward.py --benchmarks DIR [--per-domain 3]
 *     [--only a,b] [--time-limit 60] [--label-time-limit 60] [--label-per-domain N]
 *     [--cli PATH/main.js] [--skip-fd] [--skip-solve] [--skip-label] [--cache FILE] [--fresh]
 *     [--out bench/results/ipc.txt]
 *
 * DIR holds one folder per domain (a clone of the public downward-benchmarks collection). For
 * every folder, its `--per-domain` smallest problems (by file size, then name), each with the
 * domain file beside it (`domainFileFor`), go through, each step a child process with its own
 * time limit so that nothing can hang the sweep:
 *   ground   our `ground --json` (facts, operators, ms, or the error);
 *   fd       Fast Downward (A* + LM-Cut, or h^max where LM-Cut refuses conditional effects or
 *            axioms): did its translator accept the task, cost, initial h, expansions, search time;
 *   ours     our `solve --json` with the same limit, run right after Fast Downward (same load):
 *            cost, initial h, expansions, search time, and the time ratio ours / Fast Downward;
 *   label    `generate --time-limit L` on that one problem: rows, or why it was skipped (only the
 *            `--label-per-domain` smallest problems of a folder, default all of `--per-domain`).
 * `--cli` measures another build of pddl2prm (an older checkout's dist/src/cli/main.js, for
 * "before" figures). Results are cached per instance in a JSONL file (default
 * bench/results/ipc-cache-<cli hash>.jsonl, not committed), so an interrupted sweep resumes.
 * Output: a Markdown table (one row per instance) and a summary, one line per column, written
 * to `--out` and printed.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { domainFileFor, isDomainFileName } from "../src/pddl/files.js";
import { packageRoot } from "../src/util/paths.js";
import { arg } from "./reference.js";

interface Options {
  fd: string | null;
  benchmarks: string;
  perDomain: number;
  labelPerDomain: number;
  only: string[] | null;
  timeLimit: number;
  labelTimeLimit: number;
  cli: string;
  skipSolve: boolean;
  skipLabel: boolean;
  cache: string;
  out: string;
}

interface FdResult {
  translate: "ok" | "rejected" | "timeout";
  error?: string;
  config?: string;
  solved?: boolean;
  cost?: number;
  h0?: number;
  expanded?: number;
  searchMs?: number;
}

interface OursResult {
  status: string;
  error?: string;
  heuristic?: string;
  cost?: number | null;
  h0?: number | null;
  expanded?: number;
  searchMs?: number;
}

interface Result {
  key: string;
  folder: string;
  problem: string;
  ground: { ok: boolean; facts?: number; operators?: number; ms?: number; error?: string };
  fd?: FdResult;
  ours?: OursResult;
  label?: { status: "labelled" | "skipped" | "failed" | "timeout"; rows?: number; reason?: string; wallMs: number };
}

function parseOptions(): Options {
  const num = (name: string, dflt: number): number => {
    const v = arg(name);
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!(n > 0)) throw new Error(`${name} expects a positive number, got '${v}'`);
    return n;
  };
  const benchmarks = arg("--benchmarks");
  if (!benchmarks) throw new Error("--benchmarks DIR is required (a clone of the downward-benchmarks collection)");
  const cli = resolve(arg("--cli") ?? join(packageRoot(), "dist", "src", "cli", "main.js"));
  const perDomain = num("--per-domain", 3);
  const skipFd = process.argv.includes("--skip-fd");
  const fd = skipFd ? null : (arg("--fd") ?? null);
  if (!skipFd && fd === null) throw new Error("--fd PATH/fast-downward.py is required (or --skip-fd)");
  const cliHash = createHash("sha256").update(cli).digest("hex").slice(0, 8);
  const o: Options = {
    fd,
    benchmarks: resolve(benchmarks),
    perDomain,
    labelPerDomain: num("--label-per-domain", perDomain),
    only: arg("--only")?.split(",").map((s) => s.trim()) ?? null,
    timeLimit: num("--time-limit", 60),
    labelTimeLimit: num("--label-time-limit", 60),
    cli,
    skipSolve: process.argv.includes("--skip-solve"),
    skipLabel: process.argv.includes("--skip-label"),
    cache: arg("--cache") ?? join(packageRoot(), "bench", "results", `ipc-cache-${cliHash}.jsonl`),
    out: arg("--out") ?? join(packageRoot(), "bench", "results", "ipc.txt"),
  };
  if (process.argv.includes("--fresh") && existsSync(o.cache)) rmSync(o.cache);
  return o;
}

/** The `n` smallest problems of a folder (by size, then name) with their domain files. */
function instances(dir: string, n: number): Array<{ domain: string | null; problem: string }> {
  const files = readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(".pddl") && !isDomainFileName(f))
    .map((f) => ({ f, size: statSync(join(dir, f)).size }))
    .sort((a, b) => a.size - b.size || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0))
    .slice(0, n);
  return files.map(({ f }) => ({ domain: domainFileFor(dir, f), problem: join(dir, f) }));
}

/** Run a command with a wall-clock limit; `timedOut` when it was killed. */
function runLimited(cmd: string, args: string[], seconds: number, cwd?: string): { code: number | null; out: string; err: string; timedOut: boolean; ms: number } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    encoding: "utf8",
    timeout: seconds * 1000,
    killSignal: "SIGKILL",
    maxBuffer: 256 << 20,
    ...(cwd ? { cwd } : {}),
  });
  const timedOut = r.error !== undefined && (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT";
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "", timedOut, ms: performance.now() - t0 };
}

const firstLine = (s: string): string => (s.trim().split("\n").find((l) => l.trim() !== "") ?? "").slice(0, 200);
const node = (o: Options, args: string[], seconds: number) => runLimited(process.execPath, ["--max-old-space-size=4096", o.cli, ...args], seconds);

function runGround(o: Options, domain: string, problem: string): Result["ground"] {
  const r = node(o, ["ground", domain, problem, "--json"], o.timeLimit);
  if (r.timedOut) return { ok: false, error: `timeout ${o.timeLimit}s` };
  if (r.code !== 0) return { ok: false, error: firstLine(r.err) };
  const j = JSON.parse(r.out) as { facts: number; operators: number; ms: number };
  return { ok: true, facts: j.facts, operators: j.operators, ms: j.ms };
}

/** Fast Downward with LM-Cut, or h^max where its LM-Cut refuses the task (as in ../shared/reference). */
function runFd(o: Options, domain: string, problem: string): FdResult {
  const dir = mkdtempSync(join(tmpdir(), "bench-ipc-fd-"));
  try {
    let res: FdResult = { translate: "ok" };
    for (const config of ["astar(lmcut())", "astar(hmax())"]) {
      const r = runLimited(
        "python3",
        [o.fd!, "--overall-time-limit", `${o.timeLimit + 60}s`, "--overall-memory-limit", "4G", "--search-time-limit", `${o.timeLimit}s`, domain, problem, "--search", config],
        o.timeLimit + 90,
        dir,
      );
      const text = r.out + r.err;
      if (!/Translator operators:/.test(text)) {
        return r.timedOut || /time limit/i.test(text) ? { translate: "timeout" } : { translate: "rejected", error: firstLine(r.err || r.out) };
      }
      if (/does not support (conditional effects|axioms)/.test(text)) continue;
      const num = (re: RegExp): number | undefined => {
        const m = re.exec(text);
        return m ? Number(m[1]) : undefined;
      };
      res = { translate: "ok", config, solved: /Solution found/.test(text) };
      const h0 = num(/Initial heuristic value for \w+: (\d+)/);
      if (h0 !== undefined) res.h0 = h0;
      const cost = num(/Plan cost: (\d+)/);
      if (cost !== undefined) res.cost = cost;
      const exp = num(/Expanded (\d+) state/);
      if (exp !== undefined) res.expanded = exp;
      const st = num(/Search time: ([0-9.]+)s/);
      if (st !== undefined) res.searchMs = st * 1000;
      return res;
    }
    return res;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runOurs(o: Options, domain: string, problem: string): OursResult {
  const r = node(o, ["solve", domain, problem, "--json", "--time-limit", String(o.timeLimit)], o.timeLimit + 60);
  if (r.timedOut) return { status: "timeout" };
  let j: { status?: string; cost: number | null; initial_h: number | null; heuristic?: string; expanded: number; search_ms: number };
  try {
    j = JSON.parse(r.out);
  } catch {
    return { status: "error", error: firstLine(r.err) };
  }
  const out: OursResult = { status: j.status ?? "solved", cost: j.cost, h0: j.initial_h, expanded: j.expanded, searchMs: j.search_ms };
  if (j.heuristic !== undefined) out.heuristic = j.heuristic;
  return out;
}

function runLabel(o: Options, domain: string, problem: string): NonNullable<Result["label"]> {
  const out = mkdtempSync(join(tmpdir(), "bench-ipc-gen-"));
  try {
    const r = node(
      o,
      ["generate", "--domain-file", domain, "--problems", problem, "--out", join(out, "ds"), "--time-limit", String(o.labelTimeLimit), "--workers", "1", "--quiet"],
      o.labelTimeLimit + 120,
    );
    if (r.timedOut) return { status: "timeout", wallMs: r.ms };
    if (r.code !== 0) return { status: "failed", reason: firstLine(r.err), wallMs: r.ms };
    const m = JSON.parse(readFileSync(join(out, "ds", "manifest.json"), "utf8")) as {
      rows: number;
      problems: { labelled: number; skipped: Array<{ reason: string }> };
    };
    if (m.problems.labelled > 0) return { status: "labelled", rows: m.rows, wallMs: r.ms };
    return { status: "skipped", reason: m.problems.skipped[0]?.reason ?? "", wallMs: r.ms };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function loadCache(file: string): Map<string, Result> {
  const m = new Map<string, Result>();
  if (!existsSync(file)) return m;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const r = JSON.parse(line) as Result;
      m.set(r.key, r);
    } catch {
      // a line cut by a kill: recompute that instance
    }
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (x: number | null | undefined, d = 0): string => (x === undefined || x === null ? "-" : x.toFixed(d));

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const a = xs.slice().sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
}

/** Both solved with the same heuristic: h0 and time are comparable. */
function comparable(r: Result): boolean {
  return !!r.fd?.solved && r.ours?.status === "solved" && r.fd.config === `astar(${r.ours.heuristic}())`;
}

function ratio(r: Result): number | null {
  if (!comparable(r) || r.fd!.searchMs === undefined || r.ours!.searchMs === undefined) return null;
  return r.ours!.searchMs / Math.max(r.fd!.searchMs, 1);
}

function table(results: Result[]): string[] {
  const lines = [
    "| instance | ground | FD translate | config | FD cost | cost | FD h0 | h0 | FD exp | exp | FD ms | ms | ratio | label |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    const g = r.ground.ok ? `${r.ground.facts}f/${r.ground.operators}o` : `error: ${r.ground.error}`;
    const fd = r.fd;
    const ours = r.ours;
    const rt = ratio(r);
    const lab = r.label ? (r.label.status === "labelled" ? `${r.label.rows} rows, ${(r.label.wallMs / 1000).toFixed(1)} s` : `${r.label.status}${r.label.reason ? `: ${r.label.reason}` : ""}`) : "-";
    lines.push(
      `| ${r.folder}/${r.problem} | ${g} | ${fd ? fd.translate : "-"} | ${fd?.config?.replace(/astar\((\w+)\(\)\)/, "$1") ?? "-"} | ${fmt(fd?.cost)} | ${ours ? (ours.status === "solved" ? fmt(ours.cost) : ours.status) : "-"} | ${fmt(fd?.h0)} | ${fmt(ours?.h0)} | ${fmt(fd?.expanded)} | ${fmt(ours?.expanded)} | ${fmt(fd?.searchMs, 1)} | ${fmt(ours?.searchMs, 1)} | ${rt === null ? "-" : rt.toFixed(2)} | ${lab.replace(/\|/g, "/")} |`,
    );
  }
  return lines;
}

function summary(results: Result[], o: Options): string[] {
  const s: string[] = [];
  const folders = [...new Set(results.map((r) => r.folder))];
  s.push(`cli: ${o.cli}; per folder: ${o.perDomain} smallest problems; limits: search ${o.timeLimit} s, label ${o.labelTimeLimit} s`);
  s.push(`folders: ${folders.length}, instances: ${results.length}`);
  // Acceptance: the smallest problem of each folder.
  const smallest = folders.map((f) => results.find((r) => r.folder === f)!);
  if (o.fd !== null) {
    const acc = smallest.filter((r) => r.fd?.translate === "ok");
    const notOurs = acc.filter((r) => !r.ground.ok);
    s.push(`smallest problem accepted by Fast Downward's translator: ${acc.length}/${folders.length}; by our ground: ${acc.length - notOurs.length}/${acc.length}${notOurs.length ? ` (not: ${notOurs.map((r) => `${r.folder}: ${r.ground.error}`).join("; ")})` : ""}`);
    const extra = smallest.filter((r) => r.fd?.translate !== "ok" && r.ground.ok);
    if (extra.length) s.push(`ground finishes where the translator does not (${extra.map((r) => r.fd?.translate).join(", ")}): ${extra.map((r) => r.folder).join(", ")}`);
  } else {
    s.push(`smallest problem accepted by our ground: ${smallest.filter((r) => r.ground.ok).length}/${folders.length}`);
  }
  if (!o.skipSolve && o.fd !== null) {
    const both = results.filter((r) => r.fd?.solved && r.ours?.status === "solved");
    const mism = both.filter((r) => r.fd!.cost !== r.ours!.cost);
    s.push(`solved by both: ${both.length}; cost mismatches: ${mism.length}${mism.length ? ` (${mism.map((r) => `${r.folder}/${r.problem} ${r.fd!.cost} vs ${r.ours!.cost}`).join("; ")})` : ""}`);
    const lm = results.filter((r) => r.fd?.solved && r.fd.config === "astar(lmcut())" && r.ours?.heuristic === "lmcut" && r.ours.h0 !== undefined && r.fd.h0 !== undefined);
    const eq = lm.filter((r) => r.ours!.h0 === r.fd!.h0);
    const lower = lm.filter((r) => r.ours!.h0! < r.fd!.h0!);
    const higher = lm.filter((r) => r.ours!.h0! > r.fd!.h0!);
    const pct = (n: number) => (lm.length ? ((100 * n) / lm.length).toFixed(1) : "-");
    s.push(`initial h on LM-Cut instances Fast Downward solves (${lm.length}): equal ${eq.length} (${pct(eq.length)}%), lower ${lower.length}, higher ${higher.length}`);
    const zero = lm.filter((r) => r.ours!.h0 === 0 && r.fd!.h0! > 0);
    s.push(`initial h 0 where Fast Downward's is positive: ${zero.length}${zero.length ? ` (${zero.map((r) => `${r.folder}/${r.problem}`).join(", ")})` : ""}`);
    const over = results.filter((r) => r.ours?.h0 != null && r.fd?.cost !== undefined && r.fd.solved && r.ours.h0 > r.fd.cost);
    s.push(`initial h above the optimal cost: ${over.length}${over.length ? ` (${over.map((r) => `${r.folder}/${r.problem}`).join(", ")})` : ""}`);
    const diffs = [...lower, ...higher].map((r) => `${r.folder}/${r.problem} ${r.ours!.h0} vs ${r.fd!.h0}`);
    if (diffs.length) s.push(`  differing: ${diffs.join("; ")}`);
    const lmRatios = lm.map(ratio).filter((x): x is number => x !== null);
    const big = lm.filter((r) => (r.fd!.searchMs ?? 0) >= 10).map(ratio).filter((x): x is number => x !== null);
    const over5 = lm.filter((r) => (ratio(r) ?? 0) > 5 && (r.fd!.searchMs ?? 0) >= 10);
    s.push(
      `search time ours/Fast Downward on LM-Cut instances: median ${median(lmRatios).toFixed(2)} (${lmRatios.length}), max ${Math.max(...lmRatios).toFixed(2)}; ` +
        `where Fast Downward searches >= 10 ms: median ${median(big).toFixed(2)} (${big.length}), over 5x: ${over5.length}${over5.length ? ` (${over5.map((r) => `${r.folder}/${r.problem} ${ratio(r)!.toFixed(1)}x`).join(", ")})` : ""}`,
    );
    const fdOnly = results.filter((r) => r.fd?.solved && r.ours?.status !== "solved");
    const oursOnly = results.filter((r) => !r.fd?.solved && r.ours?.status === "solved");
    s.push(`solved by Fast Downward only: ${fdOnly.length}${fdOnly.length ? ` (${fdOnly.map((r) => `${r.folder}/${r.problem}`).join(", ")})` : ""}; by us only: ${oursOnly.length}`);
  }
  if (!o.skipLabel) {
    const lab = results.filter((r) => r.label);
    const ok = lab.filter((r) => r.label!.status === "labelled");
    s.push(`labelled within ${o.labelTimeLimit} s: ${ok.length}/${lab.length} (${ok.reduce((a, r) => a + (r.label!.rows ?? 0), 0)} rows)`);
    const notOk = lab.filter((r) => r.label!.status !== "labelled");
    if (notOk.length) s.push(`  not labelled: ${notOk.map((r) => `${r.folder}/${r.problem} (${r.label!.status}${r.label!.reason ? `: ${r.label!.reason.slice(0, 60)}` : ""})`).join("; ")}`);
  }
  return s;
}

function main(): void {
  let o: Options;
  try {
    o = parseOptions();
  } catch (e) {
    process.stderr.write(`bench:ipc: ${(e as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const cache = loadCache(o.cache);
  mkdirSync(dirname(o.cache), { recursive: true });
  const results: Result[] = [];
  const folders = readdirSync(o.benchmarks)
    .filter((f) => statSync(join(o.benchmarks, f)).isDirectory() && !f.startsWith("."))
    .filter((f) => o.only === null || o.only.includes(f))
    .sort();
  for (const folder of folders) {
    const insts = instances(join(o.benchmarks, folder), o.perDomain);
    insts.forEach(({ domain, problem }, i) => {
      const key = JSON.stringify([o.cli, relative(o.benchmarks, problem), o.timeLimit, o.labelTimeLimit, o.fd !== null, o.skipSolve, o.skipLabel || i >= o.labelPerDomain]);
      const hit = cache.get(key);
      if (hit) return void results.push(hit);
      const r: Result = { key, folder, problem: basename(problem), ground: { ok: false, error: "no domain file" } };
      if (domain !== null) {
        r.ground = runGround(o, domain, problem);
        if (o.fd !== null) r.fd = runFd(o, domain, problem);
        if (!o.skipSolve && r.ground.ok) r.ours = runOurs(o, domain, problem);
        if (!o.skipLabel && i < o.labelPerDomain && r.ground.ok) r.label = runLabel(o, domain, problem);
      }
      appendFileSync(o.cache, JSON.stringify(r) + "\n");
      results.push(r);
      process.stderr.write(`${folder}/${basename(problem)}: ${r.ground.ok ? "ok" : r.ground.error}${r.ours ? `, ours ${r.ours.status} h0 ${r.ours.h0}` : ""}${r.fd ? `, fd ${r.fd.translate} h0 ${r.fd.h0 ?? "-"}` : ""}${r.label ? `, label ${r.label.status}` : ""}\n`);
    });
  }
  const sum = summary(results, o);
  const text = ["# bench:ipc", "", "```", ...sum, "```", "", ...table(results), ""].join("\n");
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, text);
  process.stdout.write(sum.join("\n") + "\n");
}

main();
