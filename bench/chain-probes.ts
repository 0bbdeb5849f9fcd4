/**
 * bench/chain-probes: does the end of a chain give its label away? On a processbench or verifier
 * folder (chains: error vs error-free) or a trajectories folder (pairs: rejected vs chosen plan), each
 * chain is replayed from its PDDL copy under `pddl/` and three surface probes are scored:
 *   ends at the goal            the replayed final state satisfies the goal
 *   last step names a goal object  the last action names an object of a goal fact
 *   length                      the number of steps
 * Chains: AUC of the probe for "has an error" (0.5 = says nothing); pairs: how often the probe
 * picks the chosen side (ties split), 0.5 = says nothing. 95% intervals by a bootstrap over
 * problems (1,000 resamples, seeded), as rows of one problem are not independent.
 *
 *   node dist/bench/chain-probes.js DATASET_DIR [--out FILE]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { applyOp, findOperator, ground, isApplicable, isGoal, resolveGroundAction } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";

const dir = process.argv[2];
const outAt = process.argv.indexOf("--out");
if (dir === undefined || dir.startsWith("--")) {
  console.error("usage: node dist/bench/chain-probes.js DATASET_DIR [--out FILE]");
  process.exit(2);
}
if (!existsSync(join(dir, "config.json")) || !existsSync(join(dir, "data"))) {
  console.error(`bench/chain-probes: ${dir}: not a pddl2prm dataset folder (no config.json or data/)`);
  process.exit(2);
}
const config = (JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as { config: Record<string, unknown> }).config;
const format = String(config["format"]);
if (format !== "processbench" && format !== "verifier" && format !== "trajectories") {
  console.error(`bench/chain-probes: ${dir}: a processbench, verifier or trajectories folder, not ${format}`);
  process.exit(2);
}

const tasks = new Map<string, { task: GroundTask; goalObjects: Set<string> }>();
function taskOf(domain: string, problem: string): { task: GroundTask; goalObjects: Set<string> } {
  const key = `${domain}/${problem}`;
  let t = tasks.get(key);
  if (t === undefined) {
    const base = join(dir!, "pddl", domain);
    const own = join(base, `${problem}.domain.pddl`);
    const df = readdirSync(base).includes(`${problem}.domain.pddl`) ? own : join(base, "domain.pddl");
    const d = parseDomain(readFileSync(df, "utf8"), df);
    const task = ground(d, parseProblem(readFileSync(join(base, `${problem}.pddl`), "utf8"), problem, d));
    // objects named by the goal's facts ("(on b1 b2)" -> b1, b2)
    const goalObjects = new Set<string>();
    for (const f of [...task.goalPos, ...task.goalNeg]) for (const o of task.factNames[f]!.replace(/[()]/g, " ").trim().split(/\s+/).slice(1)) goalObjects.add(o.toLowerCase());
    tasks.set(key, (t = { task, goalObjects }));
  }
  return t;
}

interface Probed {
  goal: number;
  goalObject: number;
  length: number;
}

function probe(domain: string, problem: string, actions: string[]): Probed {
  const { task, goalObjects } = taskOf(domain, problem);
  let s = task.init;
  for (const a of actions) {
    const r = resolveGroundAction(task, a);
    if ("error" in r) continue;
    const op = findOperator(task, r.schema, r.args).find((o) => isApplicable(task, s, o));
    if (op !== undefined) s = applyOp(task, s, op);
  }
  const last = actions.at(-1) ?? "";
  const objs = last.replace(/[()]/g, " ").trim().split(/\s+/).slice(1);
  return { goal: isGoal(task, s) ? 1 : 0, goalObject: objs.some((o) => goalObjects.has(o.toLowerCase())) ? 1 : 0, length: actions.length };
}

const rows = readdirSync(join(dir, "data"))
  .filter((n) => n.endsWith(".jsonl"))
  .flatMap((n) => readFileSync(join(dir, "data", n), "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Record<string, unknown>));

const KEYS: (keyof Probed)[] = ["goal", "goalObject", "length"];
const NAMES: Record<keyof Probed, string> = { goal: "ends at the goal", goalObject: "last step names a goal object", length: "length (steps)" };
/** Per problem: the scored items (chains: [value, error?]; pairs: [chosen value, rejected value]). */
const byProblem = new Map<string, [Probed, number | Probed][]>();
/** Chains (processbench, verifier: error vs error-free) or pairs (trajectories). */
const chains = format !== "trajectories";
for (const r of rows) {
  const meta = (r["meta"] ?? {}) as Record<string, unknown>;
  if (chains) {
    const domain = String(meta["domain"] ?? r["domain"]);
    const problem = String(meta["problem_id"] ?? r["problem"]);
    const p = probe(domain, problem, meta["actions"] as string[]);
    const key = `${domain}/${problem}`;
    byProblem.set(key, [...(byProblem.get(key) ?? []), [p, (r["label"] as number) >= 0 ? 1 : 0]]);
  } else {
    const domain = String(r["domain"]);
    const problem = String(r["problem"]);
    const key = `${domain}/${problem}`;
    const chosen = probe(domain, problem, r["chosen_actions"] as string[]);
    const rejected = probe(domain, problem, r["rejected_actions"] as string[]);
    byProblem.set(key, [...(byProblem.get(key) ?? []), [chosen, rejected]]);
  }
}

/** Chains: AUC of `k` for error (ties half); pairs: share of pairs where `k` picks the chosen side (ties half). */
function score(groups: [Probed, number | Probed][][], k: keyof Probed): number {
  const items = groups.flat();
  if (chains) {
    const err = items.filter(([, e]) => e === 1).map(([p]) => p[k]);
    const ok = items.filter(([, e]) => e === 0).map(([p]) => p[k]);
    let wins = 0;
    for (const a of err) for (const b of ok) wins += a > b ? 1 : a === b ? 0.5 : 0;
    return wins / Math.max(1, err.length * ok.length);
  }
  let picks = 0;
  for (const [c, r] of items) {
    const x = c[k];
    const y = (r as Probed)[k];
    picks += x > y ? 1 : x === y ? 0.5 : 0;
  }
  return picks / Math.max(1, items.length);
}

const groups = [...byProblem.values()];
const prng = new Prng(1, "chain-probes");
const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  process.stdout.write(s + "\n");
};
say(`bench/chain-probes: ${dir} (${format}, ${rows.length} rows, ${groups.length} problems); ${chains ? "AUC of the probe for 'has an error'" : "share of pairs the probe picks the chosen side by (higher value)"}, 0.5 = says nothing; 95% bootstrap over problems`);
for (const k of KEYS) {
  const value = score(groups, k);
  const boots: number[] = [];
  for (let b = 0; b < 1000; b++) boots.push(score(Array.from({ length: groups.length }, () => groups[prng.int(groups.length)]!), k));
  boots.sort((a, b) => a - b);
  say(`  ${NAMES[k].padEnd(32)} ${value.toFixed(3)}  [${boots[25]!.toFixed(3)}, ${boots[974]!.toFixed(3)}]`);
}
if (outAt > 0 && process.argv[outAt + 1] !== undefined) writeFileSync(process.argv[outAt + 1]!, lines.join("\n") + "\n", { flag: "a" });
