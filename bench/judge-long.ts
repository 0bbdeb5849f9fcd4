/**
 * `judge` on long plans (issue 50): peak memory and time of one plan of 5k..40k steps, and the
 * per-request limit of `judge --jsonl` on such a plan. `npm run bench:judge-long` after `npm run
 * build`; results in bench/results/judge-long.txt. Target: a 40,000-step plan under 1 GB, a
 * `--jsonl` request over its limit answered within 10% of it.
 *
 * Plans (all of built-in problems, written to a temp folder; the same plans on every run):
 * - `loop`: visitgrid p0001, the robot moves back and forth between two cells (PDDL actions):
 *   every step after the first is judged against a visited set as long as the plan;
 * - `text`: the same loop written as step text (the renderer's own step sentences): the parser of
 *   step text on every step;
 * - `walk`: npuzzle p0001, a random walk of executable moves (seeded): new states, h* queries.
 *
 * Each plan is judged by `node dist/src/cli/main.js judge DOMAIN PROBLEM PLAN --json` under
 * `/usr/bin/time` (peak RSS of the process, wall and CPU time). Then one `judge --jsonl --time-ms
 * L` process gets a warm-up request per problem and the longest plan of each kind as one
 * request, and a `hard` one: a random walk of as many steps in a 15-puzzle of the built-in
 * generator (`--size 4 --depth 40`, seed 1), whose new states each need an h* search, so that
 * it runs into any limit; the time to each answer line is measured from the write (`limit
 * reached` when the plan needs longer).
 *
 * Options: --steps 5000,10000,20000,40000  --kinds loop,text,walk  --time-ms 2000 (of the --jsonl
 * requests)  --seed 1  --cli PATH (the main.js of another build, e.g. the previous one's, to
 * compare: the plans are made by this build)  --no-jsonl
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { builtinDomainFile, builtinProblemsDir, generateProblems } from "../src/generators/index.js";
import { applicableOps, successor } from "../src/label/context.js";
import { operatorCandidate } from "../src/label/classify.js";
import { loadTemplates } from "../src/nl/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createJudgeTask, type JudgeTask } from "../src/products/judge.js";
import { packageRoot } from "../src/util/paths.js";
import { Prng } from "../src/util/prng.js";
import { checkBenchFlags } from "./args.js";

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}
checkBenchFlags("bench/judge-long", "usage: npm run bench:judge-long -- [--steps 5000,10000,20000,40000] [--kinds loop,text,walk] [--time-ms 2000] [--seed 1] [--cli PATH] [--no-jsonl]", {
  values: ["--steps", "--kinds", "--time-ms", "--seed", "--cli"],
  switches: ["--no-jsonl"],
});
const lengths = flag("--steps", "5000,10000,20000,40000").split(",").map(Number);
const kinds = flag("--kinds", "loop,text,walk").split(",").filter(Boolean);
const limitMs = Number(flag("--time-ms", "2000"));
const seed = Number(flag("--seed", "1"));
for (const k of kinds) if (!["loop", "text", "walk"].includes(k)) throw new Error(`unknown kind ${k}`);
if (lengths.some((n) => !(n > 0)) || !(limitMs > 0)) throw new Error("--steps and --time-ms must be positive");

const MAIN = flag("--cli", join(packageRoot(), "dist", "src", "cli", "main.js"));
const withJsonl = !process.argv.includes("--no-jsonl");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-judge-long-"));

/** The 15-puzzle of the `hard` request (a file in the temp folder). */
const HARD = join(tmp, "hard15.pddl");
writeFileSync(HARD, generateProblems("npuzzle", { seed: 1, count: 1, sizes: { size: 4, depth: 40 } })[0]!.text);

function judgeTask(domain: string, problem: string): JudgeTask {
  const file = builtinDomainFile(domain);
  const d = parseDomain(readFileSync(file, "utf8"), file);
  const pfile = problem.endsWith(".pddl") ? problem : join(builtinProblemsDir(domain), `${problem}.pddl`);
  return createJudgeTask(d, parseProblem(readFileSync(pfile, "utf8"), pfile, d), { templates: loadTemplates(domain) });
}

const KIND = {
  loop: { domain: "visitgrid", problem: "p0001" },
  text: { domain: "visitgrid", problem: "p0001" },
  walk: { domain: "npuzzle", problem: "p0001" },
  hard: { domain: "npuzzle", problem: HARD },
} as const;

/** The first `n` steps of a plan of `kind` (the same on every run). */
function makePlan(kind: keyof typeof KIND, n: number): string[] {
  const jt = judgeTask(KIND[kind].domain, KIND[kind].problem);
  const { task, ctx, renderer } = jt;
  const out: string[] = [];
  if (kind === "walk" || kind === "hard") {
    const prng = new Prng(seed, `judge-long/${kind}`);
    let s = task.init;
    while (out.length < n) {
      const op = prng.pick(applicableOps(ctx, s));
      out.push(task.opNames[op]!);
      s = successor(ctx, s, op);
    }
    return out;
  }
  // visitgrid p0001 starts at r3c3; (move r3c3 r3c4), (move r3c4 r3c3), ...
  const there = task.opNames.indexOf("(move r3c3 r3c4)");
  const back = task.opNames.indexOf("(move r3c4 r3c3)");
  if (there < 0 || back < 0) throw new Error("visitgrid p0001 changed: no move between r3c3 and r3c4");
  const prng = new Prng(seed, "judge-long/text");
  let s = task.init;
  for (let i = 0; i < n; i++) {
    const op = i % 2 === 0 ? there : back;
    out.push(kind === "text" ? renderer.step(i + 1, operatorCandidate(task, op), prng, s) : task.opNames[op]!);
    s = successor(ctx, s, op);
  }
  return out;
}

interface Measured {
  rssMb: number;
  wallS: number;
  cpuS: number;
  code: number | null;
  summary: string;
}

/** One `judge --json` run under /usr/bin/time. */
function measure(kind: keyof typeof KIND, planFile: string): Measured {
  const r = spawnSync("/usr/bin/time", ["-f", "%M %e %U %S", process.execPath, MAIN, "judge", KIND[kind].domain, KIND[kind].problem, planFile, "--json"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const last = r.stderr.trim().split("\n").pop() ?? "";
  const [rss, wall, user, sys] = last.split(" ").map(Number);
  let summary = r.stderr.trim().split("\n").slice(0, -1).join(" | ").slice(0, 200);
  if (r.status === 0) {
    const j = JSON.parse(r.stdout) as { steps: { category: string }[]; cost: number; first_error: number | null };
    const counts = new Map<string, number>();
    for (const s of j.steps) counts.set(s.category, (counts.get(s.category) ?? 0) + 1);
    summary = `${j.steps.length} steps judged, cost ${j.cost}, ${[...counts].map(([c, k]) => `${c} ${k}`).join(", ")}`;
  }
  return { rssMb: rss! / 1024, wallS: wall!, cpuS: user! + sys!, code: r.status, summary };
}

/** Time from writing each request to its answer line, in one `judge --jsonl --time-ms` process. */
async function jsonlLatency(requests: { id: string; domain: string; problem: string; steps: string[] }[]): Promise<{ id: string; ms: number; answer: string }[]> {
  const child = spawn(process.execPath, [MAIN, "judge", "--jsonl", "--time-ms", String(limitMs)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const out: { id: string; ms: number; answer: string }[] = [];
  // warm-up: start-up and each problem's grounding are not part of the measured requests
  for (const d of new Set(requests.map((r) => `${r.domain}\0${r.problem}`))) {
    const [domain, problem] = d.split("\0");
    child.stdin.write(JSON.stringify({ domain, problem, steps: [] }) + "\n");
    await lines.next();
  }
  for (const r of requests) {
    const t0 = performance.now();
    child.stdin.write(JSON.stringify(r) + "\n");
    const line = (await lines.next()).value as string;
    const ms = performance.now() - t0;
    const j = JSON.parse(line) as { error?: string; steps?: unknown[] };
    out.push({ id: r.id, ms, answer: j.error !== undefined ? j.error.slice(0, 120) : `judged, ${j.steps!.length} steps` });
  }
  child.stdin.end();
  await new Promise((done) => child.on("close", done));
  return out;
}

try {
  const lines: string[] = [];
  const say = (s: string): void => {
    console.log(s);
    lines.push(s);
  };
  say(`# judge on long plans, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  say(`# node ${MAIN} judge DOMAIN PROBLEM PLAN --json under /usr/bin/time -f "%M %e %U %S"`);
  say("kind   steps   peak RSS MB   wall s   CPU s   exit   result");
  const longest = new Map<string, string[]>();
  for (const kind of kinds as (keyof typeof KIND)[]) {
    const all = makePlan(kind, Math.max(...lengths));
    longest.set(kind, all);
    for (const n of lengths) {
      const file = join(tmp, `${kind}-${n}.plan`);
      writeFileSync(file, all.slice(0, n).join("\n") + "\n");
      const m = measure(kind, file);
      say(`${kind.padEnd(6)} ${String(n).padStart(6)} ${m.rssMb.toFixed(0).padStart(12)} ${m.wallS.toFixed(2).padStart(8)} ${m.cpuS.toFixed(2).padStart(7)} ${String(m.code).padStart(6)}   ${m.summary}`);
    }
  }
  if (withJsonl) {
    say("");
    say(`# judge --jsonl --time-ms ${limitMs}: one request per kind of the longest plan (${Math.max(...lengths)} steps; hard: a random walk in a 15-puzzle), after a warm-up per problem`);
    say(`# bound: ${limitMs} ms + 10% = ${(limitMs * 1.1).toFixed(0)} ms from the write to the answer line`);
    longest.set("hard", makePlan("hard", Math.max(...lengths)));
    const reqs = [...longest].map(([kind, steps]) => ({ id: kind, domain: KIND[kind as keyof typeof KIND].domain, problem: KIND[kind as keyof typeof KIND].problem, steps }));
    for (const r of await jsonlLatency(reqs)) {
      say(`${r.id.padEnd(6)} ${r.ms.toFixed(0).padStart(7)} ms  ${r.ms <= limitMs * 1.1 ? "within" : "OVER"}   ${r.answer}`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
