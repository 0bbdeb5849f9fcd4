/**
 * bench/compare: this checkout's build against another commit's, on the same job, in
 * interleaved pairs, with the labels checked equal.
 *
 *   npm run bench:compare -- REF [--pairs 3] [--job main|corpus|all] [--scale 1] [--keep] [--json]
 *
 * REF (a commit, tag or branch) is checked out as a detached git worktree in a fresh temporary
 * folder (os.tmpdir()), installed (`npm ci`, or this checkout's node_modules linked when the two
 * package-lock.json files are byte-identical) and built (`npm run build`); only its CLI
 * (dist/src/cli/main.js) is run. The current build is this checkout's dist as it is (run
 * `npm run build` first).
 *
 * Jobs: `main` is `generate --domain all --count 100 --seed 7 --workers 2 --quiet`; `corpus` is
 * the paper-scale corpus of bench/corpus (its problem counts, seed 1, as many workers as cores),
 * labelled by each build's `generate --problems` from one set of problem files made by this
 * checkout's generator before the runs (untimed, as bench/corpus caches them). A flag a build's
 * CLI lacks is dropped when it is optional (`--quiet`), else the job fails.
 *
 * The machine's speed drifts, so each pair runs the two builds back to back, the order
 * alternating (REF first in pair 1, current first in pair 2, ...), and the ratios current/REF
 * are taken per pair: the median and the spread over the pairs are printed. Each run is
 * `node --import HOOK cli ...`: the hook writes `process.resourceUsage()` of the whole process
 * (worker threads included) when it exits; wall time is the parent's. The CLI starts no child
 * processes (the script checks each build's dist for child_process and says so if it finds it).
 *
 * Labels: the first pair's two datasets are compared row by row on id and the label fields
 * (category, labels/label/reward/rewards), streaming, with one side's keys in memory.
 *
 * Everything is made in the temporary folder and removed at the end, on error and on Ctrl-C
 * (the worktree with `git worktree remove --force`, then `git worktree prune`) unless --keep.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import {
  COMPARE_USAGE,
  compareLabels,
  labelCheckText,
  pairOrder,
  parseCompareArgs,
  ratioStats,
  type Job,
  type LabelCheck,
  type RatioStats,
} from "./compare-lib.js";
import { PAPER } from "./paper-corpus.js";
import { packageRoot } from "../src/util/paths.js";

const SCRIPT = "bench/compare";
const parsed = parseCompareArgs(process.argv.slice(2));
if ("help" in parsed) {
  console.log(COMPARE_USAGE);
  process.exit(0);
}
if ("error" in parsed) {
  console.error(`${SCRIPT}: error: ${parsed.error}\n${COMPARE_USAGE}`);
  process.exit(2);
}
const opt = parsed.options;
/** Progress and tables: stdout, or stderr with --json (stdout then holds the JSON object only). */
const log = (s = ""): void => void (opt.json ? process.stderr : process.stdout).write(s + "\n");

function fail(message: string, code = 1): never {
  console.error(`${SCRIPT}: error: ${message}`);
  cleanup();
  process.exit(code);
}

const root = packageRoot();
const git = (args: string[]): string => execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

// ---- what this run made, and its removal --------------------------------------------------

let tmp: string | null = null;
let refTree: string | null = null;
let linkedModules: string | null = null;
let running: ChildProcess | null = null;
let cleaned = false;
let stopping = false;

/** Remove the temporary folder and REF's worktree (only those: both were made by this run). Idempotent. */
function cleanup(): void {
  if (cleaned || tmp === null) return;
  cleaned = true;
  if (opt.keep) {
    log(`kept ${tmp}` + (refTree !== null ? `; remove it with: git worktree remove --force ${refTree} && rm -rf ${tmp}` : ""));
    return;
  }
  if (linkedModules !== null) {
    try {
      if (lstatSync(linkedModules).isSymbolicLink()) unlinkSync(linkedModules); // the link, never what it points to
    } catch {
      // already gone
    }
  }
  if (refTree !== null) {
    try {
      git(["worktree", "remove", "--force", refTree]);
    } catch {
      // removed below with the rest of the folder; prune then drops git's record of it
    }
  }
  try {
    rmSync(tmp, { recursive: true, force: true });
  } catch (e) {
    console.error(`${SCRIPT}: could not remove ${tmp} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (refTree !== null) {
    try {
      git(["worktree", "prune"]);
    } catch {
      // nothing to prune
    }
  }
}

/** End the running child's process group (SIGTERM, SIGKILL after 10 s) and wait for it. */
async function stopRunning(): Promise<void> {
  const c = running;
  if (c === null || c.pid === undefined || c.exitCode !== null || c.signalCode !== null) return;
  const closed = new Promise<void>((r) => c.once("close", () => r()));
  const kill = (sig: NodeJS.Signals): void => {
    try {
      process.kill(-c.pid!, sig);
    } catch {
      // gone already
    }
  };
  kill("SIGTERM");
  const t = setTimeout(() => kill("SIGKILL"), 10_000);
  await closed;
  clearTimeout(t);
}

const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.error(`${SCRIPT}: ${sig}: stopping${opt.keep ? "" : "; removing what this run made"}`);
    void stopRunning().finally(() => {
      cleanup();
      process.exit(SIGNAL_EXIT[sig]);
    });
  });
}
process.on("exit", cleanup); // the last resort: any other way out

// ---- child processes ------------------------------------------------------------------------

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Wall time from spawn to the child's exit. */
  ms: number;
  out: string;
  err: string;
}

/** Run `cmd` in its own process group (so Ctrl-C here ends all of it), keeping the tail of its output. */
function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const keep = (s: string, d: Buffer): string => (s + d.toString()).slice(-20_000);
    let out = "";
    let err = "";
    let ms = 0;
    const t0 = performance.now();
    const c = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running = c;
    c.stdout.on("data", (d: Buffer) => (out = keep(out, d)));
    c.stderr.on("data", (d: Buffer) => (err = keep(err, d)));
    c.on("error", reject);
    c.on("exit", () => (ms = performance.now() - t0));
    c.on("close", (code, signal) => {
      if (running === c) running = null;
      resolve({ code, signal, ms, out, err });
    });
  });
}

const tail = (r: Ran, lines = 15): string => (r.err.trim() || r.out.trim()).split("\n").slice(-lines).join("\n");

function checked(what: string, r: Ran): Ran {
  if (r.code !== 0) throw new Error(`${what} failed (${r.signal ?? `exit ${r.code}`}):\n${tail(r)}`);
  return r;
}

// ---- builds ------------------------------------------------------------------------------

type Side = "current" | "ref";
interface Build {
  side: Side;
  /** "current 5ebbd0e" / "REF f42665d". */
  name: string;
  root: string;
  cli: string;
  /** The optional flags its `generate` lacks (dropped from the job's command). */
  dropped: string[];
  /** Its files that use child_process (dist/src), which the measurements would not include. */
  childProcessFiles: string[];
}

const HOOK = `// bench/compare: the resource usage of this process (worker threads included) when it exits
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
const file = process.env.PDDL2PRM_COMPARE_USAGE;
if (isMainThread && file) {
  process.on("exit", (code) => {
    const r = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ userCPUTime: r.userCPUTime, systemCPUTime: r.systemCPUTime, maxRSS: r.maxRSS, code }));
  });
}
`;

interface Usage {
  userCPUTime: number;
  systemCPUTime: number;
  maxRSS: number;
}

/** Run `build`'s CLI with `args` under the hook: the run, and its usage (null when the hook wrote nothing). */
async function runCli(build: Build, args: readonly string[], usageFile: string, hook: string): Promise<{ ran: Ran; usage: Usage | null }> {
  rmSync(usageFile, { force: true });
  const ran = await run(process.execPath, ["--import", pathToFileURL(hook).href, build.cli, ...args], build.root, {
    ...process.env,
    PDDL2PRM_COMPARE_USAGE: usageFile,
  });
  const usage = existsSync(usageFile) ? (JSON.parse(readFileSync(usageFile, "utf8")) as Usage) : null;
  return { ran, usage };
}

/** .js files under `dir` that mention child_process. */
function childProcessUsers(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".js") && readFileSync(p, "utf8").includes("child_process")) found.push(relative(dir, p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found.sort();
}

/** Newest modification time of the .ts files under `dir`. */
function newestSource(dir: string): number {
  let t = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts")) t = Math.max(t, statSync(p).mtimeMs);
    }
  };
  if (existsSync(dir)) walk(dir);
  return t;
}

/** Check out, install and build REF in `dir` (a new folder inside the temporary one). */
async function prepareRef(sha: string, dir: string): Promise<{ install: string; installS: number; buildS: number }> {
  git(["worktree", "add", "--detach", dir, sha]);
  refTree = dir;
  const lock = join(root, "package-lock.json");
  const refLock = join(dir, "package-lock.json");
  const sameLock = existsSync(lock) && existsSync(refLock) && readFileSync(lock).equals(readFileSync(refLock));
  let install: string;
  let installS = 0;
  if (sameLock && existsSync(join(root, "node_modules"))) {
    linkedModules = join(dir, "node_modules");
    symlinkSync(join(root, "node_modules"), linkedModules, "dir");
    install = "package-lock.json identical: this checkout's node_modules linked";
  } else {
    log(`installing REF (npm ci) in ${dir} ...`);
    const r = checked("npm ci in REF's worktree", await run("npm", ["ci", "--no-audit", "--no-fund"], dir));
    installS = r.ms / 1000;
    install = `npm ci ${installS.toFixed(0)} s`;
  }
  log("building REF (npm run build) ...");
  const b = checked("npm run build in REF's worktree", await run("npm", ["run", "build"], dir));
  if (!existsSync(join(dir, "dist", "src", "cli", "main.js"))) throw new Error(`REF's build made no dist/src/cli/main.js in ${dir}`);
  return { install, installS, buildS: b.ms / 1000 };
}

/**
 * Check that `build`'s generate has `required` and the `optional` flags (recording the optional
 * ones it lacks), and that the usage hook works with it: `generate --help` runs under the hook.
 */
async function checkCli(build: Build, required: readonly string[], optional: readonly string[], usageFile: string, hook: string): Promise<void> {
  const { ran, usage } = await runCli(build, ["generate", "--help"], usageFile, hook);
  checked(`${build.name}: generate --help`, ran);
  if (usage === null || !(usage.maxRSS > 0)) throw new Error(`${build.name}: the resource-usage hook wrote nothing under generate --help`);
  const has = (flag: string): boolean => new RegExp(`(^|[\\s,])${flag}(?=[\\s,<=]|$)`, "m").test(ran.out);
  const missing = required.filter((f) => !has(f));
  if (missing.length > 0) throw new Error(`${build.name}: generate has no ${missing.join(", ")}: it cannot run this job`);
  for (const f of optional) if (!has(f) && !build.dropped.includes(f)) build.dropped.push(f);
}

// ---- jobs --------------------------------------------------------------------------------

interface JobSpec {
  job: Job;
  /** The generate arguments for an output folder (without the optional flags a build lacks). */
  args(out: string, build: Build): string[];
  required: string[];
  optional: string[];
  /** As printed. */
  command: string;
}

function withOptional(args: string[], optional: string[], build: Build): string[] {
  return [...args, ...optional.filter((f) => !build.dropped.includes(f))];
}

function mainJob(): JobSpec {
  const base = ["generate", "--domain", "all", "--count", "100", "--seed", "7", "--workers", "2"];
  const optional = ["--quiet"];
  return {
    job: "main",
    args: (out, build) => withOptional([...base, "--out", out], optional, build),
    required: ["--domain", "--count", "--seed", "--workers", "--out"],
    optional,
    command: `${base.join(" ")} --out DIR ${optional.join(" ")}`,
  };
}

/** bench/corpus's corpus: problem sets of the paper's counts times `scale` (seed 1), labelled with seed 1 on all cores. */
function corpusJob(problems: string, scale: number): JobSpec {
  const workers = String(availableParallelism());
  const base = ["generate", "--domain", Object.keys(PAPER).join(","), "--problems", problems, "--seed", "1", "--workers", workers];
  const optional = ["--quiet"];
  return {
    job: "corpus",
    args: (out, build) => withOptional([...base, "--out", out], optional, build),
    required: ["--domain", "--problems", "--seed", "--workers", "--out"],
    optional,
    command: `generate --domain <the 11 domains> --problems PROBLEMS --seed 1 --workers ${workers} --out DIR ${optional.join(" ")} (scale ${scale})`,
  };
}

/** bench/corpus's problem sets, made by this checkout's generator: the same files its makeProblemSets writes. */
async function makeCorpusProblems(dir: string, scale: number, seed = 1): Promise<{ problems: number; s: number }> {
  const { generateProblems } = await import("../src/generators/index.js");
  const t0 = performance.now();
  let problems = 0;
  for (const [d, paper] of Object.entries(PAPER)) {
    const total = Math.max(1, Math.round(paper.problems * scale));
    // above scale 1 a set is made of paper-size parts with seeds seed, seed+1, ... (as bench/corpus)
    for (let k = 0; k * paper.problems < total; k++) {
      const count = Math.min(paper.problems, total - k * paper.problems);
      const made = generateProblems(d, { count, seed: seed + k, planLengths: false });
      mkdirSync(join(dir, d), { recursive: true });
      const prefix = k === 0 ? "" : `s${k + 1}-`;
      for (const p of made) writeFileSync(join(dir, d, `${prefix}${p.name}.pddl`), p.text);
      problems += made.length;
    }
  }
  return { problems, s: (performance.now() - t0) / 1000 };
}

interface RunFigures {
  build: Side;
  pair: number;
  /** 1 when the build ran first in its pair. */
  position: 1 | 2;
  userS: number;
  sysS: number;
  cpuS: number;
  wallS: number;
  peakRssMiB: number;
}

interface JobResult {
  job: Job;
  command: string;
  dropped: Record<Side, string[]>;
  runs: RunFigures[];
  labels: LabelCheck;
  ratios: { cpu: RatioStats; wall: RatioStats; peakRss: RatioStats };
  peakRssMiB: Record<Side, number>;
  datasetMiB: Record<Side, number>;
  problemSets?: { problems: number; s: number };
}

function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += folderBytes(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

async function runJob(spec: JobSpec, builds: Record<Side, Build>, work: string, hook: string, problemSets?: { problems: number; s: number }): Promise<JobResult> {
  const usageDir = join(work, "usage");
  mkdirSync(usageDir, { recursive: true });
  for (const b of Object.values(builds)) await checkCli(b, spec.required, spec.optional, join(usageDir, `${spec.job}-check-${b.side}.json`), hook);
  log("");
  log(`job ${spec.job}: ${spec.command}`);
  for (const b of Object.values(builds)) if (b.dropped.length > 0) log(`  ${b.name}'s generate has no ${b.dropped.join(", ")}: dropped from its command`);

  const runs: RunFigures[] = [];
  const outs: Record<Side, string> = { current: "", ref: "" };
  let labels: LabelCheck | null = null;
  const datasetMiB: Record<Side, number> = { current: 0, ref: 0 };
  for (let i = 0; i < opt.pairs; i++) {
    const order = pairOrder(i);
    for (let k = 0; k < 2; k++) {
      const side = order[k]!;
      const b = builds[side];
      const out = join(work, "runs", `${spec.job}-pair${i + 1}-${side}`);
      mkdirSync(join(work, "runs"), { recursive: true });
      const { ran, usage } = await runCli(b, spec.args(out, b), join(usageDir, `${spec.job}-pair${i + 1}-${side}.json`), hook);
      checked(`${b.name}: ${spec.job} job, pair ${i + 1}`, ran);
      if (usage === null) throw new Error(`${b.name}: the resource-usage hook wrote nothing (pair ${i + 1})`);
      const f: RunFigures = {
        build: side,
        pair: i + 1,
        position: (k + 1) as 1 | 2,
        userS: usage.userCPUTime / 1e6,
        sysS: usage.systemCPUTime / 1e6,
        cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
        wallS: ran.ms / 1000,
        peakRssMiB: usage.maxRSS / 1024,
      };
      runs.push(f);
      if (i === 0) {
        outs[side] = out;
        datasetMiB[side] = folderBytes(out) / 2 ** 20;
      }
      log(`  pair ${i + 1}, ${b.name.padEnd(16)} ${f.wallS.toFixed(1).padStart(6)} s wall ${f.cpuS.toFixed(1).padStart(7)} s CPU ${f.peakRssMiB.toFixed(0).padStart(6)} MiB`);
    }
    if (i === 0) {
      log("  checking labels (first pair) ...");
      labels = await compareLabels(outs.ref, outs.current);
      log(`  ${labelCheckText(labels).replace(/\n/g, "\n  ")}`);
    }
  }
  const pairs = (get: (f: RunFigures) => number) =>
    Array.from({ length: opt.pairs }, (_, i) => ({
      current: get(runs.find((r) => r.pair === i + 1 && r.build === "current")!),
      ref: get(runs.find((r) => r.pair === i + 1 && r.build === "ref")!),
    }));
  const peak = (side: Side) => Math.max(...runs.filter((r) => r.build === side).map((r) => r.peakRssMiB));
  return {
    job: spec.job,
    command: spec.command,
    dropped: { current: [...builds.current.dropped], ref: [...builds.ref.dropped] },
    runs,
    labels: labels!,
    ratios: { cpu: ratioStats(pairs((r) => r.cpuS)), wall: ratioStats(pairs((r) => r.wallS)), peakRss: ratioStats(pairs((r) => r.peakRssMiB)) },
    peakRssMiB: { current: peak("current"), ref: peak("ref") },
    datasetMiB,
    ...(problemSets !== undefined ? { problemSets } : {}),
  };
}

// ---- the report --------------------------------------------------------------------------

const la = (l: number[]): string => l.map((x) => x.toFixed(2)).join(" ");

function jobTable(r: JobResult, builds: Record<Side, Build>): string[] {
  const lines: string[] = [];
  lines.push(`job ${r.job}: ${r.command}`);
  if (r.problemSets !== undefined) lines.push(`problem sets: ${r.problemSets.problems} problems made by the current build's generator in ${r.problemSets.s.toFixed(1)} s (untimed)`);
  lines.push(`${"build".padEnd(18)}${"pair".padStart(5)}${"order".padStart(7)}${"user s".padStart(9)}${"sys s".padStart(8)}${"CPU s".padStart(9)}${"wall s".padStart(9)}${"peak RSS MiB".padStart(14)}`);
  for (const side of ["ref", "current"] as const)
    for (const f of r.runs.filter((x) => x.build === side))
      lines.push(
        `${builds[side].name.padEnd(18)}${String(f.pair).padStart(5)}${(f.position === 1 ? "1st" : "2nd").padStart(7)}${f.userS.toFixed(1).padStart(9)}` +
          `${f.sysS.toFixed(1).padStart(8)}${f.cpuS.toFixed(1).padStart(9)}${f.wallS.toFixed(1).padStart(9)}${f.peakRssMiB.toFixed(0).padStart(14)}`,
      );
  lines.push("");
  const n = r.runs.length / 2;
  lines.push(`${"current/REF".padEnd(18)}${"median".padStart(8)}   spread over ${n} pair${n === 1 ? "" : "s"} (min..max)`);
  const row = (what: string, s: RatioStats): string => `${what.padEnd(18)}${s.median.toFixed(2).padStart(8)}   ${s.min.toFixed(2)}..${s.max.toFixed(2)}`;
  lines.push(row("CPU (user+sys)", r.ratios.cpu), row("wall", r.ratios.wall), row("peak RSS", r.ratios.peakRss));
  lines.push(`peak RSS (highest run): current ${r.peakRssMiB.current.toFixed(0)} MiB, REF ${r.peakRssMiB.ref.toFixed(0)} MiB`);
  lines.push(`output folder (pair 1): current ${r.datasetMiB.current.toFixed(0)} MiB, REF ${r.datasetMiB.ref.toFixed(0)} MiB`);
  lines.push(labelCheckText(r.labels));
  return lines;
}

// ---- main ----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const currentCli = join(root, "dist", "src", "cli", "main.js");
  if (!existsSync(currentCli)) fail(`${currentCli} not found: run npm run build first (the current build is this checkout's dist)`, 2);
  let refSha: string;
  try {
    refSha = git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${opt.ref}^{commit}`]);
  } catch {
    fail(`REF '${opt.ref}' is not a commit, tag or branch of ${root} (git rev-parse does not resolve it)`, 2);
  }
  const headSha = git(["rev-parse", "HEAD"]);
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
  const short = (s: string): string => s.slice(0, 7);
  const loadStart = loadavg();
  const info = statSync(join(root, "dist", ".tsbuildinfo"), { throwIfNoEntry: false });
  const stale = info !== undefined && Math.max(newestSource(join(root, "src")), newestSource(join(root, "bench"))) > info.mtimeMs;

  tmp = mkdtempSync(join(tmpdir(), "pddl2prm-compare-"));
  const hook = join(tmp, "usage-hook.mjs");
  writeFileSync(hook, HOOK);
  log(`${SCRIPT}: current ${short(headSha)}${dirty ? " + uncommitted changes" : ""} (${root}) against REF ${opt.ref} (${refSha})`);
  if (stale) log("warning: sources are newer than dist/.tsbuildinfo: the current build may be stale (npm run build)");
  log(`machine: ${cpus().length} cores; load average (1/5/15 min) at start: ${la(loadStart)}`);
  log(`temporary folder: ${tmp}`);

  const refDir = join(tmp, "ref");
  const prep = await prepareRef(refSha, refDir);
  log(`REF ready in ${refDir}: ${prep.install}; build ${prep.buildS.toFixed(0)} s`);

  const builds: Record<Side, Build> = {
    current: { side: "current", name: `current ${short(headSha)}${dirty ? "+" : ""}`, root, cli: currentCli, dropped: [], childProcessFiles: childProcessUsers(join(root, "dist", "src")) },
    ref: { side: "ref", name: `REF ${short(refSha)}`, root: refDir, cli: join(refDir, "dist", "src", "cli", "main.js"), dropped: [], childProcessFiles: childProcessUsers(join(refDir, "dist", "src")) },
  };
  const childNote = (b: Build): string =>
    b.childProcessFiles.length === 0
      ? `${b.name}: no child_process in dist/src: the figures cover the whole run (main thread and worker threads)`
      : `${b.name}: dist/src uses child_process (${b.childProcessFiles.join(", ")}): CPU and RSS of child processes are NOT included`;
  log(childNote(builds.ref));
  log(childNote(builds.current));

  const results: JobResult[] = [];
  for (const job of opt.jobs) {
    if (job === "main") results.push(await runJob(mainJob(), builds, tmp, hook));
    else {
      const problems = join(tmp, "corpus-problems");
      log("");
      log(`making the corpus problem sets (scale ${opt.scale}) with the current build's generator ...`);
      const made = await makeCorpusProblems(problems, opt.scale);
      log(`  ${made.problems} problems in ${made.s.toFixed(1)} s`);
      results.push(await runJob(corpusJob(problems, opt.scale), builds, tmp, hook, made));
    }
    for (const b of Object.values(builds)) b.dropped = [];
  }
  const loadEnd = loadavg();

  if (opt.json) {
    const json = {
      ref: { name: opt.ref, commit: refSha },
      current: { commit: headSha, uncommittedChanges: dirty, staleBuild: stale },
      cores: cpus().length,
      loadavg: { start: loadStart, end: loadEnd },
      refInstall: prep.install,
      refBuildS: prep.buildS,
      childProcessFiles: { current: builds.current.childProcessFiles, ref: builds.ref.childProcessFiles },
      pairs: opt.pairs,
      jobs: results,
      kept: opt.keep ? tmp : null,
    };
    process.stdout.write(JSON.stringify(json) + "\n");
  } else {
    log("");
    for (const r of results) {
      for (const l of jobTable(r, builds)) log(l);
      log("");
    }
    log(`load average (1/5/15 min): start ${la(loadStart)}, end ${la(loadEnd)} (${cpus().length} cores; background load skews wall time)`);
  }
  cleanup();
  // a guard: labels that differ are a failure, whatever the speed
  if (results.some((r) => !r.labels.same)) {
    console.error(`${SCRIPT}: labels differ between the builds (exit 1)`);
    process.exit(1);
  }
}

try {
  await main();
} catch (e) {
  if (stopping) await new Promise(() => undefined); // the signal handler cleans up and exits
  fail(e instanceof Error ? e.message : String(e));
}
