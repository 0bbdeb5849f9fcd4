/**
 * Judge throughput and latency: `npm run bench:judge` (after `npm run build`). Target: >= 1,000
 * steps judged per second on one core (DESIGN.md §13, issue 18).
 *
 * For every built-in domain, random plans (bench/judge-plans.ts: stale optimal steps, detours,
 * non-executable and unparseable steps, a fifth written as step text) of the first problems of
 * its shipped set become `judge --jsonl` requests, in the order an RL loop sends them (rounds
 * over the problems, so each problem's caches are warm after its first request). Reported:
 * - in-process (`JudgeSession.judgeLine`, what the subprocess runs per line): steps/s per domain
 *   and per-request latency;
 * - the subprocess as an RL loop calls it (`node dist/src/cli/main.js judge --jsonl`), once in
 *   lockstep (one request in flight: latency per request) and once pipelined (all requests
 *   written at once: steps/s).
 *
 * Times are CPU time of the judging process (`process.cpuUsage`, /proc for the subprocess) and
 * wall time: on a shared machine the wall clock also counts other processes' turns.
 *
 * Options: --domains a,b  --problems N (per domain, default 5)  --rounds R (plans per problem,
 * default 20)  --seed S  --ipc FILE (more problems, one PDDL path per line with its domain file
 * beside it, e.g. IPC problems: their plans are made the same way; the subprocess runs get
 * `--time-ms` of `--time-ms`, default 30,000, and a request over it answers with a limit)
 *
 * Latency per step: each request's time divided by its steps (p50, p99), per source (built-in
 * domains, IPC problems), besides the per-request figures.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { domainFileFor } from "../src/pddl/files.js";
import { createInterface } from "node:readline";
import { JudgeSession } from "../src/products/judge-session.js";
import { createJudgeTask } from "../src/products/judge.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { packageRoot } from "../src/util/paths.js";
import { Prng } from "../src/util/prng.js";
import { builtinJudgeTasks, randomPlan } from "./judge-plans.js";
import { checkBenchFlags } from "./args.js";

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}
checkBenchFlags("bench/judge", "usage: npm run bench:judge -- [--domains a,b] [--problems 5] [--rounds 20] [--seed 1] [--ipc FILE] [--time-ms 30000]", {
  values: ["--domains", "--problems", "--rounds", "--seed", "--ipc", "--time-ms"],
});
const ipcList = flag("--ipc", "");
const timeMs = Number(flag("--time-ms", "30000"));
const only = flag("--domains", "").split(",").filter(Boolean);
const nProblems = Number(flag("--problems", "5"));
const rounds = Number(flag("--rounds", "20"));
const seed = Number(flag("--seed", "1"));

interface Request {
  domain: string;
  problem: string;
  steps: string[];
}

/** Which set a request comes from ("ipc" for `--ipc` problems), for the per-step latency. */
const sourceOf = (r: Request): string => (r.domain.endsWith(".pddl") ? "ipc" : "built-in");

/** Requests in RL-loop order: round r sends one plan for every problem. */
function buildRequests(): Request[] {
  const perProblem: Request[][] = [];
  for (const { domain, problem, jt } of builtinJudgeTasks(nProblems, only)) {
    const prng = new Prng(seed, `${domain}/${problem}/judge-bench`);
    perProblem.push(Array.from({ length: rounds }, () => ({ domain, problem, steps: randomPlan(jt, prng) })));
  }
  if (ipcList !== "") {
    for (const pfile of readFileSync(ipcList, "utf8").split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"))) {
      const dfile = domainFileFor(dirname(pfile), pfile);
      if (dfile === null) continue;
      const domain = parseDomain(readFileSync(dfile, "utf8"), dfile);
      const jt = createJudgeTask(domain, parseProblem(readFileSync(pfile, "utf8"), pfile, domain), { limits: { maxStates: 2_000_000 } });
      const prng = new Prng(seed, `${pfile}/judge-bench`);
      try {
        perProblem.push(Array.from({ length: rounds }, () => ({ domain: dfile, problem: pfile, steps: randomPlan(jt, prng) })));
      } catch (e) {
        process.stderr.write(`bench/judge: ${pfile}: no plans (${(e as Error).message})\n`);
      }
    }
  }
  const out: Request[] = [];
  for (let r = 0; r < rounds; r++) for (const p of perProblem) out.push(p[r]!);
  return out;
}

/** p50 and p99 of per-step latency (a request's milliseconds over its steps), by source. */
function perStepLines(requests: Request[], lat: number[], what: string): void {
  for (const src of ["built-in", "ipc"]) {
    const xs = requests.flatMap((r, i) => (sourceOf(r) === src && r.steps.length > 0 ? [lat[i]! / r.steps.length] : []));
    if (xs.length === 0) continue;
    console.log(`  ${what} per step, ${src} (${xs.length} requests): p50 ${ms(quantile(xs, 0.5))} ms, p99 ${ms(quantile(xs, 0.99))} ms, max ${ms(Math.max(...xs))} ms`);
  }
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const ms = (x: number) => x.toFixed(2);
/** CPU milliseconds (user + system) of this process so far. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** CPU milliseconds of another process (Linux /proc; NaN elsewhere). */
function childCpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

function inProcess(requests: Request[]): void {
  const session = new JudgeSession({ cacheSize: problems });
  const byDomain = new Map<string, { steps: number; ms: number; first: number[]; warm: number[] }>();
  let steps = 0;
  const t0 = performance.now();
  const c0 = cpuMs();
  const seen = new Set<string>();
  const lat: number[] = [];
  for (const r of requests) {
    const line = JSON.stringify(r);
    const a = cpuMs();
    const out = JSON.stringify(session.judgeLine(line));
    const dt = cpuMs() - a;
    lat.push(dt);
    if (out.startsWith('{"error"')) throw new Error(`${r.domain}/${r.problem}: ${out}`);
    const name = sourceOf(r) === "ipc" ? r.problem.split("/").slice(-2).join("/") : r.domain;
    const d = byDomain.get(name) ?? { steps: 0, ms: 0, first: [], warm: [] };
    byDomain.set(name, d);
    d.steps += r.steps.length;
    d.ms += dt;
    const key = `${r.domain}/${r.problem}`;
    (seen.has(key) ? d.warm : d.first).push(dt);
    seen.add(key);
    steps += r.steps.length;
  }
  const total = performance.now() - t0;
  const cpu = cpuMs() - c0;
  console.log("in-process (JudgeSession.judgeLine + JSON, one core; CPU ms per request):");
  const w = Math.max(18, ...[...byDomain.keys()].map((k) => k.length));
  console.log(`${"domain".padEnd(w)}  requests  steps  steps/s  first ms (p50)  warm ms p50  p95  max`);
  for (const [name, d] of byDomain) {
    console.log(
      `${name.padEnd(w)}  ${String(d.first.length + d.warm.length).padStart(8)}  ${String(d.steps).padStart(5)}  ${String(Math.round((d.steps / d.ms) * 1000)).padStart(7)}  ${ms(quantile(d.first, 0.5)).padStart(14)}  ${ms(quantile(d.warm, 0.5)).padStart(11)}  ${ms(quantile(d.warm, 0.95)).padStart(4)}  ${ms(Math.max(...d.warm))}`,
    );
  }
  console.log(`total: ${requests.length} requests, ${steps} steps: CPU ${ms(cpu)} ms = ${Math.round((steps / cpu) * 1000)} steps/s (wall ${ms(total)} ms = ${Math.round((steps / total) * 1000)} steps/s)`);
  perStepLines(requests, lat, "CPU latency");
}

/** `judge --jsonl` as a subprocess: lockstep (latency) or pipelined (throughput). */
async function subprocess(requests: Request[], lockstep: boolean): Promise<void> {
  const cli = join(packageRoot(), "dist", "src", "cli", "main.js");
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, "judge", "--jsonl", "--cache", String(problems), "--time-ms", String(timeMs)], { stdio: ["pipe", "pipe", "inherit"] });
  const rl = createInterface({ input: child.stdout });
  const replies = rl[Symbol.asyncIterator]();
  const lat: number[] = [];
  let steps = 0;
  let errors = 0;
  let limits = 0;
  const check = (line: string) => {
    const o = JSON.parse(line) as { error?: string; limit?: unknown };
    if (o.error !== undefined) {
      if (/limit/i.test(o.error)) limits++;
      else errors++;
    }
  };
  if (lockstep) {
    for (const r of requests) {
      const a = performance.now();
      child.stdin.write(JSON.stringify(r) + "\n");
      const reply = await replies.next();
      lat.push(performance.now() - a);
      check(reply.value as string);
      steps += r.steps.length;
    }
  } else {
    const body = requests.map((r) => JSON.stringify(r)).join("\n") + "\n";
    child.stdin.write(body);
    for (const r of requests) {
      check((await replies.next()).value as string);
      steps += r.steps.length;
    }
  }
  const cpu = childCpuMs(child.pid!);
  child.stdin.end();
  await new Promise((done) => child.on("close", done));
  const total = performance.now() - t0;
  const what = lockstep ? "lockstep, one request in flight" : "pipelined";
  console.log(
    `subprocess judge --jsonl (${what}): ${requests.length} requests, ${steps} steps, start-up included: ` +
      `CPU ${ms(cpu)} ms = ${Math.round((steps / cpu) * 1000)} steps/s, wall ${ms(total)} ms = ${Math.round((steps / total) * 1000)} steps/s; errors ${errors}, limit answers ${limits}`,
  );
  if (lockstep) {
    console.log(`  wall latency per request: p50 ${ms(quantile(lat, 0.5))} ms, p95 ${ms(quantile(lat, 0.95))} ms, p99 ${ms(quantile(lat, 0.99))} ms, max ${ms(Math.max(...lat))} ms (first ${ms(lat[0]!)} ms; --time-ms ${timeMs})`);
    perStepLines(requests, lat, "wall latency");
  }
}

const requests = buildRequests();
// every problem stays warm, as in an RL loop over a fixed problem set
const problems = new Set(requests.map((r) => `${r.domain}/${r.problem}`)).size;
const steps = requests.reduce((a, r) => a + r.steps.length, 0);
console.log(`${requests.length} requests (${nProblems} problems x ${rounds} plans per domain), ${steps} steps, ${(steps / requests.length).toFixed(1)} per plan; seed ${seed}\n`);
inProcess(requests);
console.log("");
await subprocess(requests, true);
await subprocess(requests, false);
