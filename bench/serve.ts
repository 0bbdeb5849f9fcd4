/**
 * The reward server's throughput, latency and memory: `npm run bench:serve` (after `npm run
 * build`). Not a timed test (issue 53: on 2 cores the server should judge >= 1.6x the steps per
 * second of one `reward --jsonl` process, with p99 < 50 ms at 8 clients on built-in problems).
 *
 * Requests: for every built-in domain, random plans (bench/judge-plans.ts) of its first shipped
 * problems, written as a model answer (a sentence, a numbered plan, a closing line), in rounds
 * over the problems (an RL loop's order: each problem warm after its first request), new plans
 * in every pass (an RL loop's completions are new at every step).
 * - baseline: one `reward --jsonl` process, warm (a first pass unmeasured), all requests written
 *   at once (steps/s), then one at a time (latency per request); each server measurement is
 *   paired with a baseline pass just before it (the machine's speed drifts), ratio per pair;
 * - `pddl2prm serve` (default workers: the cores), POST /reward from 1, 8 and 64 concurrent
 *   clients (keep-alive connections): steps/s and p50/p99 latency per request;
 * - POST /batch (as the shipped TRL/verl glue calls it: one request per group of completions)
 *   with --batch B completions a request (default 16, a GRPO group), from 1 and 8 clients: steps/s;
 * - the server's RSS before and after --requests N more requests (8 clients; default 10,000),
 *   sampled along the way;
 * - under each server measurement, where the CPU of its last pass went, ms a completion (Linux
 *   /proc): the judging threads, the server's main thread, its other threads (V8's compiler and
 *   GC), this load generator (on the same cores), how busy the cores were; and the baseline's.
 *
 * Options: --problems N (per domain, default 3)  --rounds R (default 20)  --workers W
 * --requests N (the memory run; 100000 for the issue's check)  --batch B (1: no /batch phase)
 * --pairs P (baseline and server passes paired per measurement, default 5)  --seed S
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { BUILTIN_DOMAINS } from "../src/generators/index.js";
import { packageRoot } from "../src/util/paths.js";
import { Prng } from "../src/util/prng.js";
import { builtinJudgeTasks, randomPlan } from "./judge-plans.js";
import { checkBenchFlags } from "./args.js";

checkBenchFlags("bench/serve", "usage: npm run bench:serve -- [--problems 3] [--rounds 20] [--workers W] [--requests 10000] [--batch 16] [--pairs 5] [--seed 1]", {
  values: ["--problems", "--rounds", "--workers", "--requests", "--batch", "--pairs", "--seed"],
});
function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}
const nProblems = Number(flag("--problems", "3"));
const rounds = Number(flag("--rounds", "20"));
const workers = Number(flag("--workers", String(availableParallelism())));
const memRequests = Number(flag("--requests", "10000"));
const seed = Number(flag("--seed", "1"));
const batch = Number(flag("--batch", "16"));
const REPEAT = Number(flag("--pairs", "5"));
for (const [name, v] of [["--pairs", REPEAT], ["--batch", batch], ["--problems", nProblems], ["--rounds", rounds], ["--workers", workers], ["--requests", memRequests]] as const) {
  if (!Number.isInteger(v) || v < 1) {
    console.error(`bench/serve: error: ${name} must be a whole number of at least 1, got ${JSON.stringify(flag(name, ""))}`);
    process.exit(2);
  }
}
const CLI = join(packageRoot(), "dist", "src", "cli", "main.js");

/** The request lines of one pass and the steps the judge read in each (set by the baseline's pass). */
interface Pass {
  lines: string[];
  steps: number[];
}
const tasks = [...builtinJudgeTasks(nProblems)];

/**
 * Request lines in RL-loop order, fresh for every pass (`pass` seeds the plans): an RL loop sends
 * new completions of the same problems at every step, so the states they reach are partly new
 * and partly seen. (Sending one set of lines again and again measured cache hits alone: every
 * state's distance known after the first pass.)
 */
function buildRequests(pass: number): Pass {
  const perProblem: string[][] = [];
  for (const { domain, problem, jt } of tasks) {
    const prng = new Prng(seed, pass === 0 ? `${domain}/${problem}/serve-bench` : `${domain}/${problem}/serve-bench/${pass}`);
    perProblem.push(
      Array.from({ length: rounds }, () => {
        const steps = randomPlan(jt, prng);
        const completion = `Let me plan this.\n\nPlan:\n${steps.map((s, k) => `${k + 1}. ${s}`).join("\n")}\n\nThis should reach the goal.`;
        return JSON.stringify({ domain, problem, completion });
      }),
    );
  }
  const out: string[] = [];
  for (let r = 0; r < rounds; r++) for (const p of perProblem) out.push(p[r]!);
  return { lines: out, steps: [] };
}
let passes = 0;
const freshPass = (): Pass => buildRequests(++passes);

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const stepsOf = (line: string): number => (JSON.parse(line) as { extraction?: { steps: number } }).extraction?.steps ?? 0;
/*
 * Steps judged per request line: read from the baseline's answers (its pass comes first in a
 * pair; the bench process parses them on the core the single-threaded baseline leaves free), so
 * that a server pass only adds them up and the load generator, on the same 2 cores as the
 * server, takes as little from it as it can (parsing every answer cost ~0.06 ms of CPU a
 * completion).
 */
/** The baseline's answer lines (warm pass): the server's warm pass must give the same. */
const answersOf: string[] = [];
const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

/**
 * `reward --jsonl` alone, warm (the pass `warm` first, its caches warm as the server's workers
 * are): `pass` writes all the requests of a pass at once (steps/s), `latency` one at a time.
 */
async function baselineProcess(warm: Pass): Promise<{ pid: number; pass: (p: Pass) => Promise<number>; latency: (p: Pass) => Promise<{ p50: number; p99: number }>; close: () => Promise<void> }> {
  const p = spawn(process.execPath, [CLI, "reward", "--jsonl"], { stdio: ["pipe", "pipe", "inherit"] });
  const answers = createInterface({ input: p.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => (await answers.next()).value as string;
  const pass = async (q: Pass, keep = false): Promise<number> => {
    const t0 = performance.now();
    p.stdin.write(q.lines.map((l) => l + "\n").join(""));
    let steps = 0;
    for (let i = 0; i < q.lines.length; i++) {
      const a = await next();
      if (keep) answersOf[i] = a;
      q.steps[i] = stepsOf(a);
      steps += q.steps[i]!;
    }
    return (steps / (performance.now() - t0)) * 1000;
  };
  await pass(warm, true);
  return {
    pid: p.pid!,
    pass: (q) => pass(q),
    latency: async ({ lines }) => {
      const lat: number[] = [];
      for (const l of lines) {
        const t0 = performance.now();
        p.stdin.write(l + "\n");
        await next();
        lat.push(performance.now() - t0);
      }
      return { p50: quantile(lat, 0.5), p99: quantile(lat, 0.99) };
    },
    close: async () => {
      p.stdin.end();
      await new Promise((r) => p.on("exit", r));
    },
  };
}

/** CPU seconds (user + system) of each thread of process `pid`, by thread id (Linux /proc; empty elsewhere). */
function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tids) {
    try {
      const rest = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8").split(") ")[1]!.split(" ");
      out.set(Number(t), (Number(rest[11]) + Number(rest[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * Where a pass's CPU went, ms a completion: the server's main thread, its `workers` busiest other
 * threads (the judging threads), the rest of its threads (V8's compiler and GC, libuv), and this
 * process (the load generator, on the same cores).
 */
function cpuSplit(pid: number, before: Map<number, number>, after: Map<number, number>, self: NodeJS.CpuUsage, n: number, wallMs: number): string {
  const d = [...after].map(([t, s]) => [t, s - (before.get(t) ?? 0)] as const);
  const main = d.find(([t]) => t === pid)?.[1] ?? 0;
  const others = d.filter(([t]) => t !== pid).map(([, s]) => s).sort((a, b) => b - a);
  const judging = others.slice(0, workers).reduce((a, s) => a + s, 0);
  const rest = others.slice(workers).reduce((a, s) => a + s, 0);
  const gen = (self.user + self.system) / 1e6;
  const ms = (s: number) => ((1000 * s) / n).toFixed(3);
  const busy = (100 * (main + judging + rest + gen)) / ((wallMs / 1000) * availableParallelism());
  return `judging ${ms(judging)}, server main ${ms(main)}, server other ${ms(rest)}, load generator ${ms(gen)} ms CPU a completion (the cores ${busy.toFixed(0)}% busy)`;
}

function startServer(): Promise<{ proc: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CLI, "serve", "--port", "0", "--workers", String(workers), "--queue", "4096"], { stdio: ["ignore", "inherit", "pipe"] });
    let err = "";
    proc.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)/.exec(err);
      if (m !== null) resolve({ proc, port: Number(m[1]) });
    });
    proc.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

/**
 * POST /reward from `clients` concurrent clients until `lines` are all answered; with `per` > 1,
 * POST /batch with `per` request lines in each (latency per batch).
 */
async function load(port: number, { lines, steps: stepsAt }: Pass, clients: number, onDone?: (n: number) => void, per = 1, check?: string[]): Promise<{ ms: number; steps: number; lat: number[] }> {
  const keep = check !== undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const lat: number[] = [];
  let steps = 0;
  let next = 0;
  const one = (body: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const req = request({ port, host: "127.0.0.1", path: per > 1 ? "/batch" : "/reward", method: "POST", agent, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } }, (res) => {
        // the body is kept as bytes, decoded only when asked for or on an error: decoding ~70 KB of
        // answers a batch was the larger part of this client's CPU, taken from the server's cores
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString("utf8")}`));
          resolve(keep ? Buffer.concat(chunks).toString("utf8") : "");
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < lines.length) {
        const i = next;
        next += per;
        const t0 = performance.now();
        let answered = 0;
        const n = Math.min(per, lines.length - i);
        // (an answer that is not a 200 rejects: the steps added up are the ones judged)
        const text = await one(per > 1 ? `{"requests":[${lines.slice(i, i + n).join(",")}]}` : lines[i]!);
        if (check !== undefined) {
          const want = per > 1 ? `{"results":[${check.slice(i, i + n).join(",")}]}\n` : `${check[i]}\n`;
          if (text !== want) throw new Error(`bench/serve: the server's answer to request ${i} is not the one reward --jsonl printed:\n${text.slice(0, 300)}\n${want.slice(0, 300)}`);
        }
        for (let k = i; k < i + n; k++) answered += stepsAt[k]!;
        lat.push(performance.now() - t0);
        steps += answered;
        onDone?.(i);
      }
    }),
  );
  agent.destroy();
  return { ms: performance.now() - start, steps, lat };
}

/*
 * Passes of each measurement (--pairs). The machine's speed drifts by up to 1.5x over minutes (the
 * same process, the same requests), so each server pass is paired with a baseline pass just before
 * it and the ratio is taken per pair: the median ratio and its range are reported.
 */

const warm = buildRequests(0);
const base = await baselineProcess(warm);
const totalSteps = warm.steps.reduce((a, n) => a + n, 0);
console.log(`bench/serve: ${warm.lines.length} requests a pass, fresh plans in every pass (${BUILTIN_DOMAINS.length} built-in domains x ${nProblems} problems x ${rounds} rounds, ${totalSteps} steps in the first), ${availableParallelism()} cores, server workers ${workers}`);
const lat0 = await base.latency(freshPass());
console.log(`reward --jsonl (one process, warm): one request at a time: p50 ${lat0.p50.toFixed(2)} ms, p99 ${lat0.p99.toFixed(2)} ms`);
const { proc, port } = await startServer();
const pid = proc.pid!;
// one pass to warm every worker's caches, as the baseline's process warmed its own; its answers
// are checked against the baseline's (the passes measured only count the bytes)
await load(port, warm, workers, undefined, 1, answersOf);
await load(port, warm, workers, undefined, batch, answersOf);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** REPEAT pairs of (baseline pass, server pass): the line to print. */
async function phase(name: string, clients: number, per: number): Promise<string> {
  const ratios: number[] = [];
  const bases: number[] = [];
  const runs: { sps: number; lat: number[]; ms: number }[] = [];
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, s) => a + s, 0);
  let split = "";
  let baseCpu = 0;
  for (let k = 0; k < REPEAT; k++) {
    // the same fresh lines to both: each has seen the same passes before
    const fresh = freshPass();
    const b0 = sum(threadCpu(base.pid));
    const b = await base.pass(fresh);
    baseCpu += sum(threadCpu(base.pid)) - b0;
    const t0 = threadCpu(pid);
    const c0 = process.cpuUsage();
    const r = await load(port, fresh, clients, undefined, per);
    if (k === REPEAT - 1) split = cpuSplit(pid, t0, threadCpu(pid), process.cpuUsage(c0), fresh.lines.length, r.ms);
    const sps = (r.steps / r.ms) * 1000;
    bases.push(b);
    runs.push({ sps, lat: r.lat, ms: r.ms });
    ratios.push(sps / b);
  }
  const lat = runs.flatMap((r) => r.lat);
  const unit = per > 1 ? " a batch" : "";
  return (
    `${name}: ${median(runs.map((r) => r.sps)).toFixed(0)} steps/s, ${median(ratios).toFixed(2)}x reward --jsonl ` +
    `(${REPEAT} pairs: ${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}x; baseline ${Math.min(...bases).toFixed(0)}..${Math.max(...bases).toFixed(0)} steps/s), ` +
    `p50 ${quantile(lat, 0.5).toFixed(2)} ms${unit}, p99 ${quantile(lat, 0.99).toFixed(2)} ms, max ${Math.max(...lat).toFixed(0)} ms` +
    (split === "" ? "" : `\n  CPU (last pass): ${split}; reward --jsonl ${((1000 * baseCpu) / (REPEAT * warm.lines.length)).toFixed(3)} ms a completion (all passes)`)
  );
}
for (const clients of [1, 8, 64]) console.log(await phase(`serve, ${String(clients).padStart(2)} clients`, clients, 1));
if (batch > 1) for (const clients of [1, 8]) console.log(await phase(`serve /batch of ${batch}, ${clients} client${clients > 1 ? "s" : ""}`, clients, batch));
await base.close();
const memPass: Pass = { lines: [], steps: [] };
while (memPass.lines.length < memRequests) {
  const f = freshPass();
  memPass.lines.push(...f.lines.slice(0, memRequests - memPass.lines.length));
}
memPass.steps = memPass.lines.map(() => 0);
const samples: string[] = [];
const before = rssMb(pid);
const mem = await load(port, memPass, 8, (i) => {
  if ((i + 1) % Math.max(1, Math.floor(memRequests / 4)) === 0) samples.push(`${i + 1}: ${rssMb(pid).toFixed(0)} MB`);
});
const after = rssMb(pid);
console.log(`serve RSS (server process, ${workers} workers): ${before.toFixed(0)} MB before ${memRequests} more requests of fresh plans, ${after.toFixed(0)} MB after (${samples.join(", ")}); ${((memRequests / mem.ms) * 1000).toFixed(0)} requests/s at 8 clients`);
proc.kill("SIGTERM");
await new Promise((r) => proc.on("exit", r));
