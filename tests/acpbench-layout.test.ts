/**
 * `generate --format acp --layout acpbench` against ACPBench's graders, replayed independently
 * from what they read (IBM/ACPBench, commit 2ed9c92):
 * - `src/evaluation_bool_mcq.py` and the lm-eval configs `configs/tasks/boolq_cot_2shot/*`,
 *   `configs/tasks/mcq_cot_2shot/*`: `id`, `group`, `context`, `question`, `answer` (and
 *   `choices.text` / `choices.label` / `query` for mcq), graded by exact match of the extracted
 *   "yes"/"no" or letter;
 * - `src/evaluate_gen.py`, `src/grammar/acp_grammar.lark` and `src/evaluators/*.py`: a gen record's
 *   `group` picks the grader; `answer` is a list of actions (applicability), `{pos, neg}`
 *   (progression), atoms without parentheses (reachability), actions (action reachability), a
 *   0-based index (validation), `{yes, no}` (landmarks: only `yes` is accepted), `{yes, no, maybe,
 *   opt}` (next action: an action in none of them is wrong), and justification reads the plan as
 *   `question[19:-147]`; `PDDL_domain` and `PDDL_problem` (the state as `:init`) feed its planner.
 * Each gold answer is also re-checked on the PDDL the record carries, with pddl2prm's grounder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDataset } from "../src/dataset/write.js";
import { mergeDataset } from "../src/dataset/manifest.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground, type GroundTask } from "../src/task/index.js";
import { hasFact, isGoal } from "../src/task/state.js";
import { Actions, isLandmark } from "../src/reasoning/engine.js";
import { acpbenchId, splitQuestion } from "../src/reasoning/acpbench.js";
import { cliRunner } from "./cli-run.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-acpbench-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const out = join(tmp, "acp");

const TASKS = ["app", "prog", "reach", "areach", "val", "just", "land", "nexta"];
const GROUP_PREFIX: Record<string, string> = {
  app: "applicable_actions_",
  prog: "progression_",
  reach: "reachable_atom_",
  areach: "reachable_action_",
  val: "validation_",
  just: "action_justification_",
  land: "landmarks_",
  nexta: "goal_closer_",
};
/** lm-eval's yes/no extraction of ACPBench's bool configs (the `extract-yes-no` filter). */
const BOOL_RE = /((?<=The answer is )(.*)(?=.)|(?<=the answer is )(.*)(?=.)|\b(Yes|No|yes|no)\b)/;
/** A name of ACPBench's grammar (`NAME` in acp_grammar.lark): what its parser reads of an action or atom. */
const GRAMMAR_ATOM = /^\([a-zA-Z][a-zA-Z0-9\-_]*( [a-zA-Z][a-zA-Z0-9\-_]*)*\)$/;

type Rec = Record<string, unknown>;
const files: Record<string, Rec[]> = {};

/** Ground a gen record's own PDDL: its init is the question's state. */
function taskOf(rec: Rec): { task: GroundTask; actions: Actions; byName: Map<string, number> } {
  const d = parseDomain(String(rec["PDDL_domain"]).toLowerCase());
  const task = ground(d, parseProblem(String(rec["PDDL_problem"]).toLowerCase(), "<problem>", d));
  const actions = new Actions(task);
  const byName = new Map(actions.all.map((a) => [task.opNames[a]!, a] as const));
  return { task, actions, byName };
}
/** Replay `plan` from the record's init: the first step that cannot be taken (-1: none) and whether the goal holds. */
function replay(rec: Rec, plan: string[]): { fail: number; goal: boolean } {
  const { task, actions, byName } = taskOf(rec);
  let s = task.init;
  for (let i = 0; i < plan.length; i++) {
    const a = byName.get(plan[i]!);
    if (a === undefined || !actions.applicable(s, a)) return { fail: i, goal: false };
    s = actions.apply(s, a);
  }
  return { fail: -1, goal: isGoal(task, s) };
}

beforeAll(async () => {
  // ferry and hanoi keep every fact reachable (within-n questions); spanner and sokoban cut things off (unbounded ones)
  await writeDataset({ domain: ["ferry", "spanner", "sokoban"], count: 2, seed: 5, workers: 1, out, format: "acp", layout: "acpbench" });
  for (const task of readdirSync(join(out, "acpbench"))) {
    for (const name of readdirSync(join(out, "acpbench", task))) files[`${task}/${name}`] = JSON.parse(readFileSync(join(out, "acpbench", task, name), "utf8")) as Rec[];
  }
}, 120_000);

describe("--layout acpbench: ACPBench's files (issue 52)", () => {
  it("writes <task>/<split>.<bool|mcq|gen>.json for the eight tasks, listed in the manifest and the ledger", () => {
    const names = Object.keys(files);
    for (const n of names) expect(n).toMatch(/^(app|prog|reach|areach|val|just|land|nexta)\/(train|validation|test)\.(bool|mcq|gen)\.json$/);
    for (const t of TASKS) for (const f of ["bool", "mcq", "gen"]) expect(names.some((n) => n.startsWith(`${t}/`) && n.includes(`.${f}.`)), `${t} ${f}`).toBe(true);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    expect(manifest.config.layout).toBe("acpbench");
    expect(Object.keys(manifest.layout.files).sort()).toEqual(names.map((n) => `acpbench/${n}`).sort());
    for (const n of names) expect(manifest.layout.files[`acpbench/${n}`]).toBe(files[n]!.length);
    const ledger = readFileSync(join(out, ".pddl2prm-files.json"), "utf8");
    for (const n of names) expect(ledger).toContain(`"acpbench/${n}"`);
    // the questions of the rows, all of them in bool and mcq
    const rows = readdirSync(join(out, "data")).flatMap((f) => readFileSync(join(out, "data", f), "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l)));
    const nonFree = rows.filter((r) => r.form !== "free").length;
    expect(names.filter((n) => !n.includes(".gen.")).reduce((a, n) => a + files[n]!.length, 0)).toBe(nonFree);
  });

  it("bool and mcq records carry what evaluation_bool_mcq.py and the lm-eval configs read", () => {
    for (const [name, recs] of Object.entries(files)) {
      const task = name.split("/")[0]!;
      const kind = name.split(".")[1]!;
      const ids = new Set<unknown>();
      for (const r of recs) {
        expect(Number.isSafeInteger(r["id"])).toBe(true);
        ids.add(r["id"]);
        expect(typeof r["context"]).toBe("string");
        expect(String(r["context"])).toContain("The current state:");
        expect(typeof r["question"]).toBe("string");
        if (kind === "bool") {
          expect(Object.keys(r).sort()).toEqual(["answer", "context", "group", "id", "question"]);
          expect(r["group"]).toBe(`${GROUP_PREFIX[task]}bool`);
          expect(["yes", "no"]).toContain(r["answer"]);
          // the gold is what the harness extracts from a model saying it
          expect(BOOL_RE.exec(`The answer is ${r["answer"]}.`)![0].toLowerCase()).toBe(r["answer"]);
        } else if (kind === "mcq") {
          expect(Object.keys(r).sort()).toEqual(["answer", "choices", "context", "group", "id", "query", "question"]);
          expect(String(r["group"])).toMatch(new RegExp(`^${GROUP_PREFIX[task]}mcq?$`));
          const ch = r["choices"] as { text: unknown[]; label: unknown[] };
          expect(ch.label).toEqual(["A", "B", "C", "D"]);
          expect(ch.text).toHaveLength(4);
          for (const t of ch.text) expect(typeof t).toBe("string");
          expect(ch.label).toContain(r["answer"]);
          // the question shows the options; the query is the question without them
          for (const [i, t] of ch.text.entries()) expect(String(r["question"])).toContain(`${ch.label[i]}. ${t}`);
          expect(String(r["query"])).not.toMatch(/^[A-D]\. /m);
        }
      }
      expect(ids.size).toBe(recs.length);
    }
  });

  it("gen records carry what evaluate_gen.py's graders read, each gold right on the record's own PDDL", () => {
    const gen = Object.entries(files).filter(([n]) => n.includes(".gen."));
    const seen = new Set<string>();
    for (const [name, recs] of gen) {
      const task = name.split("/")[0]!;
      for (const r of recs) {
        expect(Object.keys(r).sort()).toEqual(["PDDL_domain", "PDDL_problem", "answer", "context", "group", "id", "question"]);
        expect(r["group"]).toBe(`${GROUP_PREFIX[task]}gen`);
        const { task: t, actions, byName } = taskOf(r);
        const applicable = actions.applicableIn(t.init).map((a) => t.opNames[a]!).sort();
        const a = r["answer"] as never;
        seen.add(task);
        if (task === "app") {
          expect([...(a as string[])].sort()).toEqual(applicable);
        } else if (task === "prog") {
          const { pos, neg } = a as { pos: string[]; neg: string[] };
          const action = /"(\([^"]+\))"/.exec(String(r["question"]))![1]!;
          const next = actions.apply(t.init, byName.get(action)!);
          const facts = (s: Uint32Array): Set<string> => new Set(t.factNames.filter((_, f) => !t.factDerived[f] && hasFact(s, f)));
          const before = facts(t.init);
          const after = facts(next);
          expect([...pos].sort()).toEqual([...after].filter((x) => !before.has(x)).sort());
          expect([...neg].sort()).toEqual([...before].filter((x) => !after.has(x)).sort());
          for (const x of [...pos, ...neg]) expect(x).toMatch(GRAMMAR_ATOM);
        } else if (task === "reach") {
          // atoms without their parentheses (the grader adds them); never empty (that claims nothing is unreachable)
          expect((a as string[]).length).toBeGreaterThan(0);
          for (const x of a as string[]) {
            expect(x).not.toMatch(/[()]/);
            expect(`(${x})`).toMatch(GRAMMAR_ATOM);
          }
        } else if (task === "areach") {
          expect((a as string[]).length).toBeGreaterThan(0);
          for (const x of a as string[]) expect(x).toMatch(GRAMMAR_ATOM);
        } else if (task === "val") {
          expect(Number.isInteger(a)).toBe(true);
          const plan = /"(.*)"\?$/.exec(String(r["question"]))![1]!.replace(/\) \(/g, ")\n(").split("\n");
          expect(replay(r, plan).fail).toBe(a);
        } else if (task === "just") {
          const q = String(r["question"]);
          const plan = q.slice(19, q.length - 147).replace(/\) \(/g, ")######(").split("######");
          expect(replay(r, plan)).toEqual({ fail: -1, goal: true });
          for (const entry of a as string[][]) {
            const start = Number(entry[entry.length - 1]);
            const removed = entry.slice(0, -1);
            expect(removed.length === 1 || removed.length === 2).toBe(true);
            expect(plan.slice(start, start + removed.length)).toEqual(removed);
            const simpler = [...plan.slice(0, start), ...plan.slice(start + removed.length)];
            expect(replay(r, simpler)).toEqual({ fail: -1, goal: true });
          }
        } else if (task === "land") {
          const { yes, no } = a as { yes: string[]; no: string[] };
          expect(yes.filter((x) => no.includes(x))).toEqual([]);
          // complete: every fact false now and not a goal is in one list, and the lists are right
          const goal = new Set(Array.from(t.goalPos, (g) => t.factNames[g]!));
          const open = t.factNames.filter((n, f) => !t.factDerived[f] && !hasFact(t.init, f) && !goal.has(n));
          for (const x of open) expect([...yes, ...no]).toContain(x);
          // (facts the state can no longer reach are no landmarks: they are not facts of the state's own grounding)
          for (const x of [...yes, ...no].filter((x) => !open.includes(x))) {
            expect(no).toContain(x);
            expect(t.factNames).not.toContain(x);
          }
          for (const x of yes.slice(0, 3)) expect(isLandmark(t, t.init, t.factNames.indexOf(x), { maxStates: 200_000, deadline: Infinity })?.answer).toBe(true);
          for (const x of no.slice(0, 3)) expect(isLandmark(t, t.init, t.factNames.indexOf(x), { maxStates: 200_000, deadline: Infinity })?.answer).toBe(false);
        } else if (task === "nexta") {
          const { yes, no, maybe, opt } = a as { yes: string[]; no: string[]; maybe: string[]; opt: string };
          expect(yes.length).toBeGreaterThan(0);
          expect(maybe).toEqual([]);
          // an action in none of the lists is graded wrong: they must cover every applicable action
          expect([...yes, ...no].sort()).toEqual(applicable);
          expect(Number.isInteger(Number(opt))).toBe(true);
        }
      }
    }
    expect([...seen].sort()).toEqual([...TASKS].sort());
  });

  it("splits a question into context and question, and ids are stable signed integers", () => {
    expect(splitQuestion("Rules.\n\nThe current state: a.\n\nCan I?\nAnswer yes or no.")).toEqual({ context: "Rules.\n\nThe current state: a.", question: "Can I?\nAnswer yes or no." });
    expect(acpbenchId("ferry/p0001/t00/progression/yes-no")).toBe(acpbenchId("ferry/p0001/t00/progression/yes-no"));
    expect(acpbenchId("a")).not.toBe(acpbenchId("b"));
    const ids = Array.from({ length: 200 }, (_, i) => acpbenchId(String(i)));
    expect(ids.some((x) => x < 0) && ids.some((x) => x > 0)).toBe(true);
  });

  it("a file of the user's where a layout file goes is never written over", async () => {
    const first = Object.keys(files).find((n) => n.startsWith("app/"))!;
    const path = join(out, "acpbench", first);
    const was = readFileSync(path, "utf8");
    writeFileSync(path, "mine\n"); // edited: no longer what the ledger names
    await expect(mergeDataset(out)).rejects.toThrow(/did not write it/);
    expect(readFileSync(path, "utf8")).toBe("mine\n");
    writeFileSync(path, was);
    expect((await mergeDataset(out))?.layout?.files[`acpbench/${first}`]).toBe(files[first]!.length);
  }, 120_000);
});

describe("--layout on the command line", () => {
  const run = cliRunner(tmp);
  it("refuses a bad value and acpbench without --format acp, naming the flag, writing nothing", async () => {
    const bad = await run(["generate", "--domain", "ferry", "--count", "1", "--format", "acp", "--layout", "acp-bench", "--out", join(tmp, "bad1")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--layout must be one of native, acpbench, got 'acp-bench'/);
    const native = await run(["generate", "--domain", "ferry", "--count", "1", "--layout", "acpbench", "--out", join(tmp, "bad2")]);
    expect(native.code).toBe(2);
    expect(native.stderr).toMatch(/--layout acpbench .* needs --format acp/);
    expect(readdirSync(tmp)).not.toContain("bad1");
    expect(readdirSync(tmp)).not.toContain("bad2");
  });
});
