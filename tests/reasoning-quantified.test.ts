/**
 * `--format acp` on a domain with quantified preconditions (issue 51): a workshop written for
 * this test (tests/fixtures/reasoning/workshop) whose actions have existential preconditions with
 * several witnesses (start a machine with any sound part mounted, from any room it is in; mount
 * and unmount from any room the machine is in), universal preconditions (empty hands),
 * conditional and universal effects, derived predicates (one existential, one universal) and a
 * quantified goal (p4: a corridor with side rooms, so that landmark options of one form exist). The grounder makes one operator per witness; a question is about the action
 * the user sees (its name and arguments), never about a witness.
 *
 * Every answer is re-derived by the brute force of bench/acp-truth.ts, which evaluates the lifted
 * PDDL on states (no ground task, no relaxation, no h*), and every flipped answer is found wrong.
 * The brute force itself is checked against the grounded task on the whole state space first:
 * the same states, the same actions at each, the same successors.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check, enumerate, stateOf, World, type Space, type WState } from "../bench/acp-truth.js";
import { runJob } from "../src/dataset/job.js";
import type { ProblemJob } from "../src/dataset/records.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ACP_FORMS, ACP_KINDS, Actions, applicableOps, OPEN_KINDS, type AcpRow } from "../src/reasoning/index.js";
import { applyOp, ground, isApplicable } from "../src/task/index.js";
import { stateKey, stateToFacts } from "../src/task/state.js";
import type { GroundTask } from "../src/task/types.js";
import { config, ROOT } from "./pairs-helpers.js";

const DIR = join(ROOT, "tests", "fixtures", "reasoning", "workshop");
const PROBLEMS = ["p1", "p2", "p3", "p4"];
const SEEDS = [1, 2, 3];
const MAX = 200_000;

const job = (problem: string): ProblemJob => ({
  index: 0,
  domainName: "workshop",
  domainFile: join(DIR, "domain.pddl"),
  domainText: readFileSync(join(DIR, "domain.pddl"), "utf8"),
  problemId: problem,
  problemFile: join(DIR, `${problem}.pddl`),
  problemText: readFileSync(join(DIR, `${problem}.pddl`), "utf8"),
  split: "test",
  builtinTemplates: null,
  templatesFile: null,
});
const groundTask = (problem: string): GroundTask => {
  const d = parseDomain(readFileSync(join(DIR, "domain.pddl"), "utf8"), "domain.pddl");
  return ground(d, parseProblem(readFileSync(join(DIR, `${problem}.pddl`), "utf8"), `${problem}.pddl`, d));
};
const world = (problem: string): World => World.fromFiles(join(DIR, "domain.pddl"), join(DIR, `${problem}.pddl`));
const rowsOf = (problem: string, seed: number): AcpRow[] => {
  const r = runJob(job(problem), { ...config("acp", 1.0, seed), samplesPerState: 10 });
  if (r.skipped !== null) throw new Error(`skipped: ${r.skipped}`);
  return r.lines.map((l) => JSON.parse(l) as AcpRow);
};

/** The row with its answer made wrong: the other yes/no answer, another letter, a set or accepted answer that cannot match. */
function flipped(row: AcpRow): AcpRow {
  if (row.form === "yes-no") return { ...row, answer: row.answer === "yes" ? "no" : "yes" };
  if (row.form === "choice") return { ...row, answer: row.answer === "A" ? "B" : "A" };
  const g = row.meta.gold;
  return { ...row, meta: { ...row.meta, gold: { ...g, set: g.set && [...g.set, "+(none)"], accept: g.accept && ["(none)"] } } };
}

describe("the workshop domain has what the test is about", () => {
  it("quantified preconditions, conditional effects, derived predicates; witnesses as operators of one name", () => {
    const text = readFileSync(join(DIR, "domain.pddl"), "utf8");
    for (const x of [":precondition (and (holding ?p) (exists", "(forall (?q - part) (not (holding ?q)))", "(when (machine-in ?m ?r) (lit ?r))", "(:derived (powered ?m - machine)", "(:derived (quiet ?r - room)"]) expect(text).toContain(x);
    const task = groundTask("p1");
    // in p1, once the robot is in m1's room, two sound parts are mounted on m1: two operators
    // "(start m1)" can be taken, and they are one action
    const actions = new Actions(task);
    const at = actions.apply(task.init, task.opNames.indexOf("(move r2 r1)"));
    const ops = applicableOps(task, at).map((o) => task.opNames[o]!);
    expect(ops.filter((n) => n === "(start m1)").length).toBeGreaterThanOrEqual(2);
    const names = actions.applicableIn(at).map((a) => task.opNames[a]!);
    expect(names.filter((n) => n === "(start m1)")).toHaveLength(1);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...new Set(ops)].sort());
  });
});

describe("the brute force agrees with the grounded task on every reachable state", () => {
  it.each(PROBLEMS)("%s", (problem) => {
    const task = groundTask(problem);
    const w = world(problem);
    const sp = enumerate(w, w.init, MAX);
    // the grounded task's reachable states, by their facts (derived ones left out)
    const seen = new Map<string, Uint32Array>([[stateKey(task.init), task.init]]);
    const queue = [task.init];
    for (let i = 0; i < queue.length; i++)
      for (let op = 0; op < task.numOps; op++) {
        if (!isApplicable(task, queue[i]!, op)) continue;
        const t = applyOp(task, queue[i]!, op);
        if (!seen.has(stateKey(t))) seen.set(stateKey(t), t), queue.push(t);
      }
    expect(sp.states.length).toBe(queue.length);
    const byFacts = new Map(queue.map((s) => [stateToFacts(task, s).join(" "), s]));
    const actions = new Actions(task);
    sp.states.forEach((s: WState, i) => {
      const g = byFacts.get(w.facts(s).join(" "));
      expect(g, w.facts(s).join(" ")).toBeDefined();
      // the same actions (by name), the same successors, the same goal test, derived facts alike
      const mine = sp.next[i]!.map(([j, a]) => `${a.name} -> ${w.facts(sp.states[j]!).join(" ")}`).sort();
      const theirs = actions.applicableIn(g!).map((a) => `${task.opNames[a]} -> ${stateToFacts(task, actions.apply(g!, a)).join(" ")}`).sort();
      expect(mine).toEqual(theirs);
      for (let f = 0; f < task.numFacts; f++) if (task.factDerived[f] && !task.factNames[f]!.startsWith("(__")) expect(w.holds(s, task.factNames[f]!), task.factNames[f]).toBe(((g![f >>> 5]! >>> (f & 31)) & 1) === 1);
    });
    expect(sp.states.filter((s) => w.isGoal(s)).length).toBeGreaterThan(0);
  }, 120_000);
});

/** Per problem: does an action (PDDL) have several operators (witnesses)? */
const multiOf = new Map<string, (x: string) => boolean>();
const multi = (problem: string): ((x: string) => boolean) => {
  let f = multiOf.get(problem);
  if (f === undefined) {
    const task = groundTask(problem);
    const actions = new Actions(task);
    f = (x) => {
      const o = task.opNames.indexOf(x);
      return o >= 0 && actions.variantsOf(o).length > 1;
    };
    multiOf.set(problem, f);
  }
  return f;
};

describe("--format acp with existential preconditions: one question per action, every answer re-derived", () => {
  const all: AcpRow[] = [];
  const worlds = new Map<string, World>();
  it.each(PROBLEMS.flatMap((p) => SEEDS.map((seed) => [p, seed] as const)))("%s, seed %i", async (problem, seed) => {
    const w = worlds.get(problem) ?? worlds.set(problem, world(problem)).get(problem)!;
    const spaces = new Map<string, Space>();
    {
      const rows = rowsOf(problem, seed);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        // a turn of the event loop per row: vitest's worker RPC times out after 60 s of synchronous work
        await new Promise<void>((resolve) => setImmediate(resolve));
        all.push(row);
        const s = stateOf(w, row);
        const full = (): Space => spaces.get(s.key) ?? spaces.set(s.key, enumerate(w, s, MAX)).get(s.key)!;
        const why = `${row.id}: ${row.question.slice(row.question.lastIndexOf("\n\n") + 2)}`;
        // no option twice, no item twice, no action listed twice in a free answer
        if (row.form === "choice") expect(new Set(row.choices).size, why).toBe(4);
        expect(new Set(row.meta.items).size, why).toBe(row.meta.items.length);
        for (const xs of [row.meta.gold.set, row.meta.gold.accept]) if (xs !== null) expect(new Set(xs).size, why).toBe(xs.length);
        if (row.kind === "applicability" && row.form === "free") expect(new Set(row.answer.split("\n")).size, why).toBe(row.answer.split("\n").length);
        expect(check(w, row, s, full, MAX), why).toBe(true);
        expect(check(w, flipped(row), s, full, MAX), `${why} (flipped)`).toBe(false);
      }
    }
  }, 300_000);

  it("every kind in every form; actions with several witnesses asked about in each kind that names actions", () => {
    // (the open kinds, free answers only, are checked row by row above; the eight kinds in every form)
    const cells = new Set(all.filter((r) => !OPEN_KINDS.has(r.kind)).map((r) => `${r.kind}/${r.form}`));
    expect([...cells].sort()).toEqual(ACP_KINDS.filter((k) => !OPEN_KINDS.has(k)).flatMap((k) => ACP_FORMS.map((f) => `${k}/${f}`)).sort());
    // the questions name actions whose precondition has several witnesses
    for (const kind of ["applicability", "action-reachability", "next-action"]) expect(all.filter((r) => r.kind === kind && r.meta.items.some(multi(r.problem))).length, kind).toBeGreaterThan(0);
    for (const kind of ["validation", "justification"]) expect(all.filter((r) => r.kind === kind && r.meta.plan!.some(multi(r.problem))).length, kind).toBeGreaterThan(0);
    expect(all.filter((r) => r.kind === "progression" && multi(r.problem)(r.meta.action!)).length).toBeGreaterThan(0);
    expect(all.filter((r) => r.meta.horizon !== null).length).toBeGreaterThan(0);
  });
});
