/**
 * bench/ipc: the whole IPC collection, side by side with Fast Downward.
 *
 *   npm run bench:ipc -- --fd PATH/fast-downward.py --benchmarks DIR [--per-domain 3]
 *     [--only a,b] [--time-limit 60] [--label-time-limit 60] [--label-per-domain N]
 *     [--cli PATH/main.js] [--skip-fd] [--skip-solve] [--skip-label] [--h0-only] [--cache FILE] [--fd-cache FILE]
 *     [--label-workers 2] [--label-fd-solved] [--fresh]
 *     [--repeat 5] [--repeat-below 100] [--out bench/results/ipc.txt]
 *
 * DIR holds one folder per domain (a clone of the public downward-benchmarks collection). For
 * every folder, its `--per-domain` smallest problems (by file size, then name), each with the
 * domain file beside it (`domainFileFor`), go through these steps, each a child process in its
 * own process group with its own time limit (the whole group is killed on timeout: Fast
 * Downward's driver starts the translator and the search as grandchildren) and a memory cap
 * (4 GiB), so that nothing can hang the sweep:
 *   parse    our `parse --json`: accepted, or the first line of the error;
 *   ground   our `ground --json` (facts, operators, ms, or the error);
 *   fd       Fast Downward, A* + LM-Cut; where its search refuses the task (conditional effects,
 *            axioms) A* + h^max on the same translator output: did the translator accept the
 *            task, cost, initial h, expansions, search time;
 *   ours     our `solve --json` with the same limit, run right after Fast Downward (same load):
 *            cost, initial h, expansions, search time, and the time ratio ours / Fast Downward;
 *            where both searches take less than `--repeat-below` ms, both run `--repeat` times
 *            in alternation and the medians are compared (one run of a few ms is noise);
 *   label    `generate --time-limit L` on that one problem: rows, or why it was skipped (only the
 *            `--label-per-domain` smallest problems of a folder, default all of `--per-domain`).
 * `--h0-only` compares initial heuristic values only (Fast Downward's search with `bound=0`, ours
 * with `--max-expansions 0`): seconds per instance instead of minutes, on every instance Fast
 * Downward's LM-Cut accepts, solved or not; no costs, times or labels.
 * `--time-limit` bounds parse, ground, Fast Downward's translator and both searches;
 * `--label-time-limit` bounds `generate`. `--cli` measures another build of pddl2prm (an older
 * checkout's dist/src/cli/main.js, for "before" figures). Results are cached per instance in a
 * JSONL file (default bench/results/ipc-cache-<hash of cli>.jsonl, not committed) keyed by cli,
 * its build (the names, sizes and times of the files of its dist folder: a rebuild at the same
 * path is a new key), instance and options, so an interrupted sweep resumes; `--fresh` starts
 * it over.
 * Output: a Markdown table (one row per instance) and a summary, one line per column, written
 * to `--out` and printed.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { domainFileFor, isDomainFileName } from "../src/pddl/files.js";
import { packageRoot } from "../src/util/paths.js";
import { arg, median } from "./reference.js";
import { checkBenchFlags } from "./args.js";

/** Bumped when a Result gains fields, so that older cache lines are recomputed. */
const CACHE_VERSION = 3;
const MEMORY_LIMIT = "4G";
const NODE_HEAP_MB = 4096;
const LMCUT = "astar(lmcut())";
const HMAX = "astar(hmax())";

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
  h0Only: boolean;
  /** Runs per search (both planners) where both search for less than `repeatBelowMs`. */
  repeat: number;
  repeatBelowMs: number;
  cache: string;
  /** Fast Downward's results, keyed without our cli (one FD sweep serves the before and after runs). */
  fdCache: string;
  /** `generate --workers` for the label step. */
  labelWorkers: number;
  /** Label only instances Fast Downward solves within the time limit (the issue's measure). */
  labelFdSolved: boolean;
  /** Fingerprint of the cli's build (see `buildStamp`). */
  build: string;
  out: string;
}

type SearchStatus = "solved" | "unsolvable" | "limit" | "timeout" | "memout" | "error";

interface FdResult {
  translate: "ok" | "rejected" | "timeout" | "memout";
  error?: string;
  config?: string;
  status?: SearchStatus;
  cost?: number;
  h0?: number;
  expanded?: number;
  searchMs?: number;
  /** Search times of every run when the search was short enough to repeat (`searchMs` is their median). */
  searchRuns?: number[];
}

interface OursResult {
  status: SearchStatus;
  error?: string;
  heuristic?: string;
  cost?: number | null;
  h0?: number | null;
  expanded?: number;
  searchMs?: number;
  /** As `FdResult.searchRuns`. */
  searchRuns?: number[];
}

interface Result {
  key: string;
  folder: string;
  problem: string;
  parse?: { ok: boolean; error?: string };
  ground: { ok: boolean; facts?: number; operators?: number; ms?: number; error?: string };
  fd?: FdResult;
  ours?: OursResult;
  label?: { status: "labelled" | "skipped" | "failed" | "timeout"; rows?: number; reason?: string; wallMs: number; statesCut?: number };
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
  if (!existsSync(benchmarks) || !statSync(benchmarks).isDirectory()) throw new Error(`--benchmarks: ${benchmarks} is not a folder`);
  const cli = resolve(arg("--cli") ?? join(packageRoot(), "dist", "src", "cli", "main.js"));
  if (!existsSync(cli)) throw new Error(`--cli: ${cli} not found (build with npx tsc -p tsconfig.json)`);
  const perDomain = num("--per-domain", 3);
  const skipFd = process.argv.includes("--skip-fd");
  const fd = skipFd ? null : (arg("--fd") ?? null);
  if (!skipFd && fd === null) throw new Error("--fd PATH/fast-downward.py is required (or --skip-fd)");
  if (fd !== null && !existsSync(fd)) throw new Error(`--fd: ${fd} not found`);
  const cliHash = createHash("sha256").update(cli).digest("hex").slice(0, 8);
  const o: Options = {
    fd: fd === null ? null : resolve(fd),
    benchmarks: resolve(benchmarks),
    perDomain,
    labelPerDomain: num("--label-per-domain", perDomain),
    only: arg("--only")?.split(",").map((s) => s.trim()) ?? null,
    timeLimit: num("--time-limit", 60),
    labelTimeLimit: num("--label-time-limit", 60),
    cli,
    skipSolve: process.argv.includes("--skip-solve"),
    skipLabel: process.argv.includes("--skip-label") || process.argv.includes("--h0-only"),
    h0Only: process.argv.includes("--h0-only"),
    repeat: Math.round(num("--repeat", 5)),
    repeatBelowMs: num("--repeat-below", 100),
    cache: arg("--cache") ?? join(packageRoot(), "bench", "results", `ipc-cache-${cliHash}.jsonl`),
    fdCache: arg("--fd-cache") ?? join(packageRoot(), "bench", "results", "ipc-fd-cache.jsonl"),
    labelWorkers: Math.round(num("--label-workers", 2)),
    labelFdSolved: process.argv.includes("--label-fd-solved"),
    build: buildStamp(cli),
    out: arg("--out") ?? join(packageRoot(), "bench", "results", "ipc.txt"),
  };
  if (process.argv.includes("--fresh")) {
    if (existsSync(o.cache)) rmSync(o.cache);
    if (existsSync(o.fdCache)) rmSync(o.fdCache);
  }
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

// ---------------------------------------------------------------------------------------------
// Child processes

interface Run {
  code: number | null;
  out: string;
  err: string;
  timedOut: boolean;
  ms: number;
}

/** Process groups still running, killed if the sweep itself is interrupted. */
const liveGroups = new Set<number>();

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // the group is already gone
  }
}

/**
 * Run a command in a process group of its own with a wall-clock limit. On timeout, and after a
 * normal exit (stragglers), the whole group is killed: killing only the child would leave Fast
 * Downward's search running and holding our pipes.
 */
function runLimited(cmd: string, args: string[], seconds: number, cwd?: string): Promise<Run> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const pgid = child.pid;
    let out = "";
    let err = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    if (pgid !== undefined) liveGroups.add(pgid);
    const timer = setTimeout(() => {
      timedOut = true;
      if (pgid !== undefined) killGroup(pgid);
    }, seconds * 1000);
    child.on("exit", () => pgid !== undefined && killGroup(pgid));
    child.on("error", (e) => (err += e.message));
    child.on("close", (code) => {
      clearTimeout(timer);
      if (pgid !== undefined) liveGroups.delete(pgid);
      done({ code, out, err, timedOut, ms: performance.now() - t0 });
    });
  });
}

const firstLine = (s: string): string => (s.trim().split("\n").find((l) => l.trim() !== "") ?? "").slice(0, 200);

/** Our CLI under the Node heap cap. */
const node = (o: Options, args: string[], seconds: number): Promise<Run> =>
  runLimited(process.execPath, [`--max-old-space-size=${NODE_HEAP_MB}`, o.cli, ...args], seconds);

async function runParse(o: Options, domain: string, problem: string): Promise<NonNullable<Result["parse"]>> {
  const r = await node(o, ["parse", domain, problem, "--json", "--max-memory", String(NODE_HEAP_MB)], o.timeLimit);
  if (r.timedOut) return { ok: false, error: `timeout ${o.timeLimit}s` };
  return r.code === 0 ? { ok: true } : { ok: false, error: firstLine(r.err) };
}

async function runGround(o: Options, domain: string, problem: string): Promise<Result["ground"]> {
  const r = await node(o, ["ground", domain, problem, "--json", "--max-memory", String(NODE_HEAP_MB)], o.timeLimit);
  if (r.timedOut) return { ok: false, error: `timeout ${o.timeLimit}s` };
  if (r.code !== 0) return { ok: false, error: firstLine(r.err) || `exit ${r.code}` };
  const j = JSON.parse(r.out) as { facts: number; operators: number; ms: number };
  return { ok: true, facts: j.facts, operators: j.operators, ms: j.ms };
}

async function runOurs(o: Options, domain: string, problem: string): Promise<OursResult> {
  const limit = o.h0Only ? ["--max-expansions", "0"] : [];
  // (the same memory as Fast Downward's --overall-memory-limit: solve's own default is 1280 MB)
  const r = await node(o, ["solve", domain, problem, "--heuristic", "lmcut", "--json", "--time-limit", String(o.timeLimit), "--max-memory", String(NODE_HEAP_MB), ...limit], o.timeLimit + 60);
  if (r.timedOut) return { status: "timeout" };
  let j: { status?: SearchStatus; solvable: boolean; cost: number | null; initial_h: number | null; heuristic?: string; expanded: number; search_ms: number };
  try {
    j = JSON.parse(r.out);
  } catch {
    return { status: "error", error: firstLine(r.err) || `exit ${r.code}` };
  }
  // Builds before `status` (an older --cli) only said solvable or not.
  const status = j.status ?? (j.solvable ? "solved" : "unsolvable");
  const out: OursResult = { status, cost: j.cost, h0: j.initial_h, expanded: j.expanded, searchMs: j.search_ms };
  if (j.heuristic !== undefined) out.heuristic = j.heuristic;
  return out;
}

async function runLabel(o: Options, domain: string, problem: string): Promise<NonNullable<Result["label"]>> {
  const out = mkdtempSync(join(tmpdir(), "bench-ipc-gen-"));
  try {
    const r = await node(
      o,
      ["generate", "--domain-file", domain, "--problems", problem, "--out", join(out, "ds"), "--time-limit", String(o.labelTimeLimit), "--workers", String(o.labelWorkers), "--quiet"],
      o.labelTimeLimit + 120,
    );
    if (r.timedOut) return { status: "timeout", wallMs: r.ms };
    if (r.code !== 0) return { status: "failed", reason: firstLine(r.err) || `exit ${r.code}`, wallMs: r.ms };
    const m = JSON.parse(readFileSync(join(out, "ds", "manifest.json"), "utf8")) as {
      rows: number;
      problems: { labelled: number; skipped: Array<{ reason: string }>; partial?: Array<{ states_cut: number; reason: string }> };
    };
    const cut = m.problems.partial?.[0];
    if (m.problems.labelled > 0) return { status: "labelled", rows: m.rows, wallMs: r.ms, ...(cut ? { statesCut: cut.states_cut, reason: cut.reason } : {}) };
    return { status: "skipped", reason: m.problems.skipped[0]?.reason ?? "", wallMs: r.ms };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Fast Downward

/** Exit codes of Fast Downward's driver (driver/returncodes.py) that this bench tells apart. */
const FD_CODE = {
  translateUnsolvable: 10,
  searchUnsolvable: 11,
  translateMemout: 20,
  translateTimeout: 21,
  searchMemout: 22,
  searchTimeout: 23,
  searchUnsupported: 34,
} as const;

/** The exit code the driver reports for one component ("translate exit code: 31"). */
function fdExitCode(text: string, component: "translate" | "search"): number | null {
  const m = new RegExp(`^${component} exit code: (-?\\d+)`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * Why a component of Fast Downward failed, from its own output: the driver's INFO lines, the
 * progress and memory lines are noise; a Python traceback ends on stderr with the exception,
 * other errors are printed on stdout just before "<component> exit code" (e.g. "Undefined
 * predicate / Got: foo").
 */
function fdError(r: Run, component: "translate" | "search"): string {
  const noise = /^(INFO|WARNING)\s|^\[t=|wall-clock\]$|^Peak memory|^Remove intermediate/;
  const meaningful = (s: string) => s.split("\n").filter((l) => l.trim() !== "" && !noise.test(l));
  const err = meaningful(r.err);
  if (err.length) return err[err.length - 1]!.slice(0, 200);
  const before = meaningful(r.out.split(new RegExp(`^${component} exit code:`, "m"))[0] ?? "");
  return before.slice(-2).join(" / ").slice(0, 200) || `exit ${r.code}`;
}

function num(text: string, re: RegExp): number | undefined {
  const m = re.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The search's figures from Fast Downward's log. */
function fdSearch(r: Run, config: string): FdResult {
  const text = r.out;
  const code = fdExitCode(text, "search");
  const status: SearchStatus = /Solution found/.test(text)
    ? "solved"
    : code === FD_CODE.searchUnsolvable
      ? "unsolvable"
      : code === FD_CODE.searchTimeout || r.timedOut
        ? "timeout"
        : code === FD_CODE.searchMemout
          ? "memout"
          : "error";
  const res: FdResult = { translate: "ok", config, status };
  if (status === "error") res.error = fdError(r, "search");
  const h0 = num(text, /Initial heuristic value for \w+: (\d+)/);
  if (h0 !== undefined) res.h0 = h0;
  const cost = num(text, /Plan cost: (\d+)/);
  if (cost !== undefined) res.cost = cost;
  // The total, not "Expanded until last jump: N state(s)."
  const expanded = num(text, /Expanded (\d+) state\(s\)\./);
  if (expanded !== undefined) res.expanded = expanded;
  const searchS = num(text, /Search time: ([0-9.]+)s/);
  if (searchS !== undefined) res.searchMs = searchS * 1000;
  return res;
}

/**
 * Fast Downward with LM-Cut; where its search refuses the task (conditional effects or axioms
 * in the translator's output), h^max on the same output.sas, as in ../shared/reference.
 */
async function runFd(o: Options, domain: string, problem: string): Promise<FdResult> {
  const dir = mkdtempSync(join(tmpdir(), "bench-ipc-fd-"));
  const limits = ["--overall-memory-limit", MEMORY_LIMIT, "--translate-time-limit", `${o.timeLimit}s`, "--search-time-limit", `${o.timeLimit}s`];
  // Backstop only: the driver enforces its own limits, we kill it if it does not.
  const fd = (args: string[]) => runLimited("python3", [o.fd!, ...limits, ...args], 2 * o.timeLimit + 60, dir);
  try {
    const config = (c: string) => (o.h0Only ? c.replace(/\)$/, ", bound=0)") : c);
    const r = await fd(["--keep-sas-file", domain, problem, "--search", config(LMCUT)]);
    const tcode = fdExitCode(r.out, "translate");
    if (tcode === FD_CODE.translateTimeout || (tcode === null && r.timedOut)) return { translate: "timeout" };
    if (tcode === FD_CODE.translateMemout) return { translate: "memout" };
    if (tcode === FD_CODE.translateUnsolvable) return { translate: "ok", status: "unsolvable" };
    if (tcode !== 0) return { translate: "rejected", error: fdError(r, "translate") };
    if (fdExitCode(r.out, "search") !== FD_CODE.searchUnsupported) return fdSearch(r, LMCUT);
    return fdSearch(await fd([join(dir, "output.sas"), "--search", config(HMAX)]), HMAX);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Cache

/**
 * Fingerprint of the build `cli` belongs to: name, size and modification time of every file of
 * the enclosing `dist` folder (the cli file's folder where there is none).
 */
function buildStamp(cli: string): string {
  let root = dirname(cli);
  for (let d = root; dirname(d) !== d; d = dirname(d)) {
    if (basename(d) === "dist") {
      root = d;
      break;
    }
  }
  const h = createHash("sha256");
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const f = join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (/\.(js|wasm)$/.test(e.name)) {
        const st = statSync(f);
        h.update(`${relative(root, f)}\0${st.size}\0${st.mtimeMs}\n`);
      }
    }
  };
  walk(root);
  return h.digest("hex").slice(0, 16);
}

function cacheKey(o: Options, problem: string, label: boolean): string {
  return JSON.stringify([CACHE_VERSION, o.cli, o.build, relative(o.benchmarks, problem), o.timeLimit, o.labelTimeLimit, o.fd, o.skipSolve, label, o.h0Only, o.repeat, o.repeatBelowMs]);
}

const fdResults = new Map<string, FdResult>();
let fdLoaded = false;

/**
 * Fast Downward's result for one instance, from `--fd-cache` when it is there (keyed by the
 * planner, the instance and the limits, not by our cli: the before and after sweeps of a change
 * share one Fast Downward run, which is most of a sweep's time).
 */
async function cachedFd(o: Options, domain: string, problem: string): Promise<FdResult> {
  if (!fdLoaded) {
    fdLoaded = true;
    if (existsSync(o.fdCache)) {
      for (const line of readFileSync(o.fdCache, "utf8").split("\n")) {
        try {
          const e = JSON.parse(line) as { key: string; fd: FdResult };
          fdResults.set(e.key, e.fd);
        } catch {
          // empty or cut line
        }
      }
    }
  }
  const key = JSON.stringify([CACHE_VERSION, o.fd, relative(o.benchmarks, problem), o.timeLimit, o.h0Only]);
  const hit = fdResults.get(key);
  // repeated runs change searchMs/searchRuns in place: a copy keeps the cached line pristine
  if (hit) return structuredClone(hit);
  const fd = await runFd(o, domain, problem);
  fdResults.set(key, structuredClone(fd));
  mkdirSync(dirname(o.fdCache), { recursive: true });
  appendFileSync(o.fdCache, JSON.stringify({ key, fd }) + "\n");
  return fd;
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
const name = (r: Result): string => `${r.folder}/${r.problem}`;
const list = (rs: Result[], f: (r: Result) => string = name): string => (rs.length ? ` (${rs.map(f).join("; ")})` : "");
const heuristicOf = (config: string | undefined): string | undefined => config?.replace(/astar\((\w+)\(\)\)/, "$1");

/** Both solved with the same heuristic: initial h and search time are comparable. */
function comparable(r: Result): boolean {
  return r.fd?.status === "solved" && r.ours?.status === "solved" && heuristicOf(r.fd.config) === r.ours.heuristic;
}

function ratio(r: Result): number | null {
  if (!comparable(r) || r.fd!.searchMs === undefined || r.ours!.searchMs === undefined) return null;
  return r.ours!.searchMs / Math.max(r.fd!.searchMs, 1);
}

/** Our initial h against Fast Downward's, where both used the same heuristic. */
function h0Relation(r: Result): "=" | "<" | ">" | null {
  const a = r.ours?.h0;
  const b = r.fd?.h0;
  if (a == null || b == null || heuristicOf(r.fd?.config) !== r.ours?.heuristic) return null;
  return a === b ? "=" : a < b ? "<" : ">";
}

function labelCell(l: Result["label"]): string {
  if (!l) return "-";
  if (l.status === "labelled") return `${l.rows} rows, ${(l.wallMs / 1000).toFixed(1)} s${l.statesCut ? ` (${l.statesCut} states cut)` : ""}`;
  return `${l.status}${l.reason ? `: ${l.reason}` : ""}`;
}

function row(r: Result): string {
  const fd = r.fd;
  const ours = r.ours;
  const fdH = heuristicOf(fd?.config);
  const config = ours?.heuristic && fdH && ours.heuristic !== fdH ? `${fdH} / ours ${ours.heuristic}` : (fdH ?? ours?.heuristic ?? "-");
  const search = (s: { status?: SearchStatus; cost?: number | null } | undefined) => (!s?.status ? "-" : s.status === "solved" ? fmt(s.cost) : s.status);
  const cells = [
    name(r),
    r.parse ? (r.parse.ok ? "ok" : `error: ${r.parse.error}`) : "-",
    r.ground.ok ? `${r.ground.facts}f/${r.ground.operators}o` : `error: ${r.ground.error}`,
    fd ? (fd.translate === "rejected" ? `rejected: ${fd.error}` : fd.translate) : "-",
    config,
    search(fd),
    search(ours),
    fmt(fd?.h0),
    fmt(ours?.h0),
    h0Relation(r) ?? "-",
    fmt(fd?.expanded),
    fmt(ours?.expanded),
    fmt(fd?.searchMs, 1),
    fmt(ours?.searchMs, 1),
    fmt(ratio(r), 2),
    labelCell(r.label),
  ];
  return `| ${cells.map((c) => c.replace(/\|/g, "/")).join(" | ")} |`;
}

function table(results: Result[]): string[] {
  const head = ["instance", "parse", "ground", "FD translate", "config", "FD cost", "cost", "FD h0", "h0", "h0 vs FD", "FD exp", "exp", "FD ms", "ms", "ratio", "label"];
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...results.map(row)];
}

/** Parse and ground acceptance, against Fast Downward's translator on each folder's smallest problem. */
function acceptanceLines(results: Result[], o: Options): string[] {
  const s: string[] = [];
  const parsed = results.filter((r) => r.parse?.ok);
  s.push(`our parse accepts: ${parsed.length}/${results.length} instances${list(results.filter((r) => !r.parse?.ok), (r) => `${name(r)}: ${r.parse?.error ?? r.ground.error}`)}`);
  const folders = [...new Set(results.map((r) => r.folder))];
  const smallest = folders.map((f) => results.find((r) => r.folder === f)!);
  if (o.fd === null) {
    s.push(`smallest problem accepted by our ground: ${smallest.filter((r) => r.ground.ok).length}/${folders.length}`);
    return s;
  }
  const acc = smallest.filter((r) => r.fd?.translate === "ok");
  const notOurs = acc.filter((r) => !r.ground.ok);
  s.push(`smallest problem accepted by Fast Downward's translator: ${acc.length}/${folders.length}; by our ground: ${acc.length - notOurs.length}/${acc.length}${list(notOurs, (r) => `${r.folder}: ${r.ground.error}`)}`);
  const extra = results.filter((r) => r.fd && r.fd.translate !== "ok" && r.ground.ok);
  s.push(`ground finishes where the translator does not: ${extra.length}${list(extra, (r) => `${name(r)}: translator ${r.fd!.translate}`)}`);
  return s;
}

function costLines(results: Result[]): string[] {
  const both = results.filter((r) => r.fd?.status === "solved" && r.ours?.status === "solved");
  const mism = both.filter((r) => r.fd!.cost !== r.ours!.cost);
  const fdOnly = results.filter((r) => r.fd?.status === "solved" && r.ours?.status !== "solved");
  const oursOnly = results.filter((r) => r.fd && r.fd.status !== "solved" && r.ours?.status === "solved");
  return [
    `solved by both: ${both.length}; cost mismatches: ${mism.length}${list(mism, (r) => `${name(r)} ${r.fd!.cost} vs ${r.ours!.cost}`)}`,
    `solved by Fast Downward only: ${fdOnly.length}${list(fdOnly)}; by us only: ${oursOnly.length}${list(oursOnly)}`,
  ];
}

/** Initial h on instances Fast Downward solved with LM-Cut and we searched with LM-Cut. */
function h0Lines(results: Result[], h0Only = false): string[] {
  // with --h0-only no search ends in "solved": every instance Fast Downward's LM-Cut evaluated
  const lm = results.filter((r) => (h0Only || r.fd?.status === "solved") && r.fd?.config === LMCUT && h0Relation(r) !== null);
  const by = (rel: string) => lm.filter((r) => h0Relation(r) === rel);
  const pct = (n: number) => (lm.length ? ((100 * n) / lm.length).toFixed(1) : "-");
  const [eq, lower, higher] = [by("="), by("<"), by(">")];
  const zero = lm.filter((r) => r.ours!.h0 === 0 && r.fd!.h0! > 0);
  // Any admissible h above Fast Downward's optimal cost is a bug, whatever the heuristic.
  const over = results.filter((r) => r.ours?.h0 != null && r.fd?.status === "solved" && r.fd.cost !== undefined && r.ours.h0 > r.fd.cost);
  const diff = (r: Result) => `${name(r)} ${r.ours!.h0} vs ${r.fd!.h0}`;
  return [
    `initial h on LM-Cut instances Fast Downward ${h0Only ? "evaluates" : "solves"} (${lm.length}): equal ${eq.length} (${pct(eq.length)}%), lower ${lower.length} (${pct(lower.length)}%)${list(lower, diff)}, higher ${higher.length} (${pct(higher.length)}%)${list(higher, diff)}`,
    `initial h 0 where Fast Downward's is positive: ${zero.length}${list(zero)}`,
    `initial h above the optimal cost (must be 0): ${over.length}${list(over, (r) => `${name(r)} ${r.ours!.h0} > ${r.fd!.cost}`)}`,
  ];
}

function timeLines(results: Result[], o: Options): string[] {
  const lm = results.filter((r) => r.fd?.config === LMCUT && ratio(r) !== null);
  const big = lm.filter((r) => r.fd!.searchMs! >= 10);
  const stats = (rs: Result[]) => {
    const xs = rs.map((r) => ratio(r)!);
    return xs.length ? `median ${median(xs).toFixed(2)}, max ${Math.max(...xs).toFixed(2)} (${xs.length})` : "none";
  };
  // Sub-10 ms searches are dominated by start-up noise (JIT warm-up, timer resolution).
  const over5 = lm.filter((r) => ratio(r)! > 5);
  const repeated = lm.filter((r) => r.fd!.searchRuns !== undefined).length;
  const over = (r: Result) => `${name(r)} ${ratio(r)!.toFixed(1)}x (FD ${fmt(r.fd!.searchMs, 1)} ms)`;
  return [
    `search time ours / Fast Downward, both solved with LM-Cut: ${stats(lm)}; where Fast Downward searches >= 10 ms: ${stats(big)}`,
    `searches under ${o.repeatBelowMs} ms on both sides timed as the median of ${o.repeat} runs each: ${repeated} of ${lm.length}`,
    `over 5x: ${over5.length}${list(over5, over)}`,
  ];
}

function labelLines(results: Result[], o: Options): string[] {
  const lab = results.filter((r) => r.label);
  const ok = lab.filter((r) => r.label!.status === "labelled");
  const notOk = lab.filter((r) => r.label!.status !== "labelled");
  const s = [
    `labelled within ${o.labelTimeLimit} s: ${ok.length}/${lab.length} (${ok.reduce((a, r) => a + (r.label!.rows ?? 0), 0)} rows)`,
    `not labelled: ${notOk.length}${list(notOk, (r) => `${name(r)}: ${labelCell(r.label)}`)}`,
  ];
  if (o.fd !== null) {
    // the issue's measure: instances Fast Downward solves within the time limit
    const fdSolved = lab.filter((r) => r.fd?.status === "solved");
    const fdOk = fdSolved.filter((r) => r.label!.status === "labelled");
    const fdNot = fdSolved.filter((r) => r.label!.status !== "labelled");
    const partial = fdOk.filter((r) => (r.label!.statesCut ?? 0) > 0);
    const secs = fdOk.map((r) => r.label!.wallMs / 1000);
    s.push(
      `of the ${fdSolved.length} that Fast Downward solves within ${o.timeLimit} s: labelled ${fdOk.length} (${((100 * fdOk.length) / Math.max(1, fdSolved.length)).toFixed(1)}%)` +
        `${partial.length > 0 ? `, ${partial.length} of them in part (states cut at the limit)` : ""}; wall time median ${median(secs).toFixed(1)} s`,
      `not labelled among them: ${fdNot.length}${list(fdNot, (r) => `${name(r)} (FD ${fmt(r.fd!.searchMs)} ms): ${labelCell(r.label)}`)}`,
    );
  }
  return s;
}

function summary(results: Result[], o: Options): string[] {
  const folders = new Set(results.map((r) => r.folder)).size;
  const s = [
    `command: node dist/bench/ipc.js ${process.argv.slice(2).join(" ")}`,
    `cli: ${o.cli}; per folder: ${o.perDomain} smallest problems; limits: ${o.timeLimit} s (parse, ground, translate, search), label ${o.labelTimeLimit} s`,
    `folders seen: ${folders}, instances: ${results.length}`,
    ...acceptanceLines(results, o),
  ];
  if (!o.skipSolve && o.fd !== null) s.push(...(o.h0Only ? h0Lines(results, true) : [...costLines(results), ...h0Lines(results), ...timeLines(results, o)]));
  if (!o.skipSolve && o.fd === null) s.push(`solved by us: ${results.filter((r) => r.ours?.status === "solved").length}/${results.length}`);
  if (!o.skipLabel) s.push(...labelLines(results, o));
  return s;
}

// ---------------------------------------------------------------------------------------------

async function measure(o: Options, folder: string, domain: string | null, problem: string, key: string, label: boolean): Promise<Result> {
  const r: Result = { key, folder, problem: basename(problem), ground: { ok: false, error: "no domain file" } };
  if (domain === null) return r;
  r.parse = await runParse(o, domain, problem);
  r.ground = await runGround(o, domain, problem);
  // Fast Downward and ours back to back, so that both searches see the same machine load.
  if (o.fd !== null) r.fd = await cachedFd(o, domain, problem);
  if (!o.skipSolve && r.ground.ok) r.ours = await runOurs(o, domain, problem);
  if (r.fd && r.ours && !o.h0Only) await repeatShortSearches(o, domain, problem, r.fd, r.ours);
  if (label && r.ground.ok && (!o.labelFdSolved || r.fd?.status === "solved")) r.label = await runLabel(o, domain, problem);
  return r;
}

/**
 * A search of a few milliseconds is timed once by neither planner reliably: Fast Downward's
 * search time is process CPU time (six identical runs of a 7-expansion search read 0.0 to
 * 5.0 ms), ours includes V8's warm-up, and both move with the scheduler. Where both searches
 * are shorter than `--repeat-below`, run both `--repeat` times in all, in alternation, and keep
 * the median of each (every run's time is kept in `searchRuns`).
 */
async function repeatShortSearches(o: Options, domain: string, problem: string, fd: FdResult, ours: OursResult): Promise<void> {
  if (o.repeat <= 1 || fd.status !== "solved" || ours.status !== "solved") return;
  if (fd.searchMs === undefined || ours.searchMs === undefined) return;
  if (Math.max(fd.searchMs, ours.searchMs) >= o.repeatBelowMs) return;
  const fdRuns = [fd.searchMs];
  const ourRuns = [ours.searchMs];
  for (let i = 1; i < o.repeat; i++) {
    const f = await runFd(o, domain, problem);
    if (f.status === "solved" && f.searchMs !== undefined) fdRuns.push(f.searchMs);
    const u = await runOurs(o, domain, problem);
    if (u.status === "solved" && u.searchMs !== undefined) ourRuns.push(u.searchMs);
  }
  fd.searchRuns = fdRuns;
  fd.searchMs = median(fdRuns);
  ours.searchRuns = ourRuns;
  ours.searchMs = median(ourRuns);
}

function progress(r: Result): string {
  const parts = [r.ground.ok ? "ground ok" : `ground: ${r.ground.error}`];
  if (r.fd) parts.push(`fd ${r.fd.translate}${r.fd.status ? ` ${r.fd.status}` : ""} h0 ${fmt(r.fd.h0)}`);
  if (r.ours) parts.push(`ours ${r.ours.status} h0 ${fmt(r.ours.h0)}`);
  if (r.label) parts.push(`label ${r.label.status}`);
  return `${name(r)}: ${parts.join(", ")}\n`;
}

async function main(): Promise<void> {
  let o: Options;
  try {
    o = parseOptions();
  } catch (e) {
    process.stderr.write(`bench:ipc: ${(e as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  // Children run in their own process groups: a Ctrl-C reaches only us, so pass it on.
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.on(sig, () => {
      for (const g of liveGroups) killGroup(g);
      process.exit(130);
    });
  }
  const cache = loadCache(o.cache);
  mkdirSync(dirname(o.cache), { recursive: true });
  const results: Result[] = [];
  const folders = readdirSync(o.benchmarks)
    .filter((f) => !f.startsWith(".") && statSync(join(o.benchmarks, f)).isDirectory())
    .filter((f) => o.only === null || o.only.includes(f))
    .sort();
  for (const folder of folders) {
    const insts = instances(join(o.benchmarks, folder), o.perDomain);
    for (const [i, { domain, problem }] of insts.entries()) {
      const label = !o.skipLabel && i < o.labelPerDomain;
      const key = cacheKey(o, problem, label);
      let r = cache.get(key);
      if (!r) {
        r = await measure(o, folder, domain, problem, key, label);
        appendFileSync(o.cache, JSON.stringify(r) + "\n");
        process.stderr.write(progress(r));
      }
      results.push(r);
    }
  }
  const sum = summary(results, o);
  const text = ["# bench:ipc", "", "```", ...sum, "```", "", ...table(results), ""].join("\n");
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, text);
  process.stdout.write(sum.join("\n") + "\n");
}

checkBenchFlags(
  "bench/ipc",
  "usage: npm run bench:ipc -- --fd PATH/fast-downward.py --benchmarks DIR [--per-domain 3] [--only a,b] [--time-limit 60] [--label-time-limit 60]\n" +
    "         [--label-per-domain N] [--cli PATH/main.js] [--skip-fd] [--skip-solve] [--skip-label] [--h0-only] [--cache FILE] [--fd-cache FILE] [--label-workers 2] [--label-fd-solved] [--fresh]\n" +
    "         [--repeat 5] [--repeat-below 100] [--out bench/results/ipc.txt]",
  {
    values: ["--fd", "--fd-cache", "--label-workers", "--benchmarks", "--per-domain", "--only", "--time-limit", "--label-time-limit", "--label-per-domain", "--cli", "--cache", "--repeat", "--repeat-below", "--out"],
    switches: ["--label-fd-solved", "--skip-fd", "--skip-solve", "--skip-label", "--h0-only", "--fresh"],
  },
);
await main();
