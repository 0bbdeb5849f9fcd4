/**
 * `pddl2prm serve` (docs/rl.md, "The reward server"): the real CLI server on a free port.
 * /reward answers exactly the line `reward --jsonl` prints for the same request, /judge the line
 * of `judge --jsonl`; /batch keeps the order; OpenRLHF's remote reward model call (/get_reward,
 * replayed as its client sends it) and verl/TRL's through /batch (the shipped Python glue, when
 * python3 is installed) give the rewards of `reward --jsonl`; /health and /metrics.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDataset } from "../src/dataset/write.js";
import type { RlRow } from "../src/products/rl.js";
import { ROOT } from "./cli-run.js";
import { cliLines, post, startServer, type RunningServer } from "./serve-helpers.js";
import { fileTempDir } from "./temp-dir.js";

const tmp = fileTempDir("serve-");
const data = join(tmp, "rl");
let rows: RlRow[] = [];
let server: RunningServer;

function readRows(dir: string): RlRow[] {
  return readdirSync(join(dir, "data"))
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => readFileSync(join(dir, "data", f), "utf8").trim().split("\n").map((l) => JSON.parse(l) as RlRow));
}

/** Answers as models write them: prose and a plan, a think block, a broken plan, none. */
function answersFor(plan: string[]): string[] {
  return [
    `Let me think about the blocks first. The hand is empty.\n\nHere is my plan:\n${plan.map((a, i) => `${i + 1}. ${a}`).join("\n")}\n\nThis reaches the goal because every block ends where it should.`,
    `<think>maybe ${plan[0]}</think>\nFinal plan:\n\`\`\`\n${plan.join("\n")}\n\`\`\``,
    plan.slice(1).map((a, i) => `Step ${i + 1}: ${a}`).join("\n"),
    `${plan[0]}\n(no-such-action x)\n${plan.slice(1).join("\n")}`,
    "I do not know.",
  ];
}

/** Reward requests: built-in blocksworld problems by name, and rows of the rl dataset by their PDDL. */
function requests(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let id = 0;
  // built-in, by name: the shipped p0002's optimal plan (docs/rl.md's example problem)
  const p0002 = ["(unstack b4 b3)", "(put-down b4)", "(pick-up b3)", "(stack b3 b4)", "(pick-up b2)", "(stack b2 b3)"];
  for (const a of answersFor(p0002)) out.push({ id: id++, domain: "blocksworld", problem: "p0002", completion: a });
  out.push({ id: id++, domain: "blocksworld", problem: "p0001", completion: [{ role: "user", content: "plan?" }, { role: "assistant", content: "1. (pick-up b1)" }] });
  out.push({ id: "opts", domain: "blocksworld", problem: "p0002", completion: p0002.join("\n"), scale_by_cost: false, outcome_weight: 0.8, seed: 3 });
  for (const r of rows.slice(0, 4)) for (const a of answersFor(r.answer.split("\n"))) out.push({ id: id++, domain: r.domain_pddl, problem: r.problem_pddl, completion: a });
  return out;
}

beforeAll(async () => {
  await writeDataset({ domain: ["blocksworld", "ferry"], count: 3, seed: 5, workers: 1, out: data, format: "rl" });
  rows = readRows(data);
  server = await startServer(["--workers", "2", "--data", data]);
}, 180_000);

afterAll(async () => {
  if (server !== undefined) {
    const e = await server.stop();
    expect(e.code).toBe(0);
  }
});

describe("serve: the endpoints", () => {
  it("POST /reward answers byte for byte the line `reward --jsonl` prints", { timeout: 120_000 }, async () => {
    const reqs = requests();
    const expected = await cliLines(["reward", "--jsonl"], reqs.map((r) => JSON.stringify(r) + "\n").join(""));
    expect(expected).toHaveLength(reqs.length);
    for (let i = 0; i < reqs.length; i++) {
      const r = await post(`${server.url}/reward`, JSON.stringify(reqs[i]));
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/application\/json/);
      expect(r.text).toBe(expected[i] + "\n");
    }
    // the prose + plan answer is judged as its plan: valid and optimal
    const first = JSON.parse(expected[0]!) as { reward: number; valid: boolean; step_rewards: number[] };
    expect(first.valid).toBe(true);
    expect(first.reward).toBe(1);
    expect(first.step_rewards).toEqual([1, 1, 1, 1, 1, 1]);
    // a request the judge refuses (unknown problem): the same error line, status 400
    const bad = { id: 9, domain: "blocksworld", problem: "p9999", completion: "x" };
    const [badLine] = await cliLines(["reward", "--jsonl"], JSON.stringify(bad) + "\n");
    const r = await post(`${server.url}/reward`, JSON.stringify(bad));
    expect(r.status).toBe(400);
    expect(r.text).toBe(badLine + "\n");
  });

  it("POST /batch answers every request in order, as `reward --jsonl` does", { timeout: 120_000 }, async () => {
    const reqs = requests().reverse();
    const expected = await cliLines(["reward", "--jsonl"], reqs.map((r) => JSON.stringify(r) + "\n").join(""));
    const r = await post(`${server.url}/batch`, JSON.stringify({ requests: reqs }));
    expect(r.status).toBe(200);
    expect(r.text).toBe(`{"results":[${expected.join(",")}]}\n`);
    const ids = (JSON.parse(r.text) as { results: { id: unknown }[] }).results.map((x) => x.id);
    expect(ids).toEqual(reqs.map((x) => x.id));
    // empty and judge batches
    expect((await post(`${server.url}/batch`, '{"requests": []}')).text).toBe('{"results":[]}\n');
    const jreqs = [{ id: "j1", domain: "blocksworld", problem: "p0002", steps: ["(unstack b4 b3)", "(pick-up b1)"] }, { id: "j2", domain: "ferry", problem: "p0001", steps: ["(sail l0 l1)"] }];
    const jexp = await cliLines(["judge", "--jsonl"], jreqs.map((x) => JSON.stringify(x) + "\n").join(""));
    expect((await post(`${server.url}/batch`, JSON.stringify({ kind: "judge", requests: jreqs }))).text).toBe(`{"results":[${jexp.join(",")}]}\n`);
  });

  it("POST /judge answers the line `judge --jsonl` prints", { timeout: 60_000 }, async () => {
    const reqs = [
      { id: 1, domain: "blocksworld", problem: "p0002", steps: ["(unstack b4 b3)", "(put-down b4)", "(stack b1 b1)"] },
      { id: 2, domain: "blocksworld", problem: "p0002", steps: ["unstack block 4 from block 3"] },
      { id: 3, domain: rows[0]!.domain_pddl, problem: rows[0]!.problem_pddl, steps: rows[0]!.answer.split("\n") },
    ];
    const expected = await cliLines(["judge", "--jsonl"], reqs.map((r) => JSON.stringify(r) + "\n").join(""));
    for (let i = 0; i < reqs.length; i++) {
      const r = await post(`${server.url}/judge`, JSON.stringify(reqs[i]));
      expect(r.status).toBe(200);
      expect(r.text).toBe(expected[i] + "\n");
    }
  });

  it("POST /get_reward: OpenRLHF's remote reward model call, replayed, gives reward --jsonl's rewards", { timeout: 120_000 }, async () => {
    // what OpenRLHF's remote_rm_fn sends: requests.post(url, json={"query", "prompts", "labels"},
    // headers={"Content-Type": "application/json"}); it reads response.json()["rewards"]
    const picked = rows.slice(0, 4);
    const queries: string[] = [];
    const prompts: string[] = [];
    const labels: unknown[] = [];
    const direct: Record<string, unknown>[] = [];
    picked.forEach((row, k) => {
      const templated = `<|im_start|>user\n${row.prompt as string}<|im_end|>\n<|im_start|>assistant\n`;
      for (const [j, a] of answersFor(row.answer.split("\n")).entries()) {
        const response = `${a}<|im_end|>`;
        queries.push(templated + response);
        prompts.push(templated);
        // every way a label may name the problem: its hash, its row id, verl's ground_truth, the reward_model column
        labels.push([row.pddl_sha256, row.id, row.reward_model.ground_truth, row.reward_model][(k + j) % 4]);
        direct.push({ domain: row.domain_pddl, problem: row.problem_pddl, completion: response });
      }
    });
    const expected = (await cliLines(["reward", "--jsonl"], direct.map((r) => JSON.stringify(r) + "\n").join(""))).map((l) => (JSON.parse(l) as { reward: number }).reward);
    const r = await post(`${server.url}/get_reward`, JSON.stringify({ query: queries, prompts, labels }));
    expect(r.status).toBe(200);
    const body = JSON.parse(r.text) as { rewards: number[]; scores: number[]; extra_logs: Record<string, number[]> };
    expect(body.rewards).toEqual(expected);
    expect(body.scores).toEqual(expected);
    expect(body.extra_logs.valid!.length).toBe(queries.length);
    // the reference plans score 1 (the prompt's examples are not read as the plan)
    expect(body.rewards.filter((x) => x === 1).length).toBeGreaterThanOrEqual(picked.length);
    // without prompts: the response is found after the chat template's assistant marker
    const noPrompts = JSON.parse((await post(`${server.url}/get_reward`, JSON.stringify({ query: queries, labels }))).text) as { rewards: number[] };
    expect(noPrompts.rewards).toEqual(expected);
    // a label naming nothing: 400 with one line
    const bad = await post(`${server.url}/get_reward`, JSON.stringify({ query: ["x"], labels: ["0".repeat(64)] }));
    expect(bad.status).toBe(400);
    expect(bad.text.trim().split("\n")).toHaveLength(1);
    expect(bad.text).toMatch(/labels\[0\]: no problem of --data has pddl_sha256/);
  });

  it("verl's compute_score and TRL's reward function through /batch (the shipped Python glue) agree with reward --jsonl", { timeout: 300_000 }, async () => {
    const py = spawnSync("python3", ["--version"], { encoding: "utf8" });
    if (py.status !== 0) return; // no python3 here: the /get_reward and /batch replays above still ran
    const picked = rows.slice(0, 3);
    const answers = picked.flatMap((row) => answersFor(row.answer.split("\n")).map((a) => ({ row, a })));
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(join(ROOT, "python"))})
import pddl2prm_rl as rl
cases = json.load(sys.stdin)
assert isinstance(rl.client(), rl.ServerClient)
verl = [rl.compute_score("pddl2prm", c["a"], c["gt"], extra_info=c["extra"]) for c in cases]
trl = rl.pddl2prm_reward(completions=[[{"role": "assistant", "content": c["a"]}] for c in cases], domain_pddl=[c["d"] for c in cases], problem_pddl=[c["p"] for c in cases], prompts=None)
print(json.dumps({"verl": verl, "trl": trl}))
`;
    const input = JSON.stringify(answers.map(({ row, a }) => ({ a, gt: row.reward_model.ground_truth, extra: row.extra_info, d: row.domain_pddl, p: row.problem_pddl })));
    const run = spawnSync("python3", ["-c", script], { input, encoding: "utf8", env: { ...process.env, PDDL2PRM_URL: server.url, PDDL2PRM: "false" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const got = JSON.parse(run.stdout) as { verl: number[]; trl: number[] };
    const expected = (await cliLines(["reward", "--jsonl"], answers.map(({ row, a }) => JSON.stringify({ domain: row.domain_pddl, problem: row.problem_pddl, completion: a }) + "\n").join(""))).map(
      (l) => (JSON.parse(l) as { reward: number }).reward,
    );
    expect(got.verl).toEqual(expected);
    expect(got.trl).toEqual(expected);
  });

  it("a problem's lines wait for its home worker (its caches), and a lone batch still keeps every worker busy", { timeout: 60_000 }, async () => {
    const away = async (): Promise<number> => Number(/^pddl2prm_lines_away_from_home_total (\d+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())![1]);
    const before = await away();
    // one request at a time: the idle worker whose queue holds the line takes it
    for (let i = 0; i < 8; i++) {
      const r = await post(`${server.url}/reward`, JSON.stringify({ domain: "blocksworld", problem: i % 2 === 0 ? "p0001" : "p0002", completion: "(pick-up b1)" }));
      expect(r.status).toBe(200);
    }
    expect(await away()).toBe(before);
    // 16 lines of one problem at once: half go to the other worker rather than wait
    const batch = Array.from({ length: 16 }, (_, i) => ({ id: i, domain: "ferry", problem: "p0001", completion: "(board c1 l1)" }));
    const r = await post(`${server.url}/batch`, JSON.stringify({ requests: batch }));
    expect(r.status).toBe(200);
    expect((JSON.parse(r.text) as { results: unknown[] }).results).toHaveLength(16);
    expect(await away()).toBeGreaterThanOrEqual(before + 4);
  });

  it("GET /health and /metrics", async () => {
    const h = await fetch(`${server.url}/health`);
    expect(h.status).toBe(200);
    const hb = (await h.json()) as { ok: boolean; workers: number; problems_indexed: number };
    expect(hb.ok).toBe(true);
    expect(hb.workers).toBe(2);
    expect(hb.problems_indexed).toBe(rows.length);
    const m = await fetch(`${server.url}/metrics`);
    expect(m.status).toBe(200);
    expect(m.headers.get("content-type")).toMatch(/^text\/plain; version=0.0.4/);
    const text = await m.text();
    expect(text).toMatch(/^pddl2prm_requests_total\{endpoint="\/reward",code="200"\} \d+$/m);
    expect(text).toMatch(/^pddl2prm_requests_in_flight \d+$/m);
    expect(text).toMatch(/^pddl2prm_queue_length 0$/m);
    expect(text).toMatch(/^pddl2prm_workers 2$/m);
    const steps = Number(/^pddl2prm_judged_steps_total (\d+)$/m.exec(text)![1]);
    expect(steps).toBeGreaterThan(50);
    expect(text).toMatch(/^pddl2prm_errors_total\{reason="bad_request"\} [1-9]\d*$/m);
    expect(text).toMatch(/^pddl2prm_request_duration_seconds_bucket\{endpoint="\/batch",le="\+Inf"\} [1-9]\d*$/m);
    expect(text).toMatch(/^pddl2prm_request_duration_seconds_count\{endpoint="\/reward"\} [1-9]\d*$/m);
  });
});
