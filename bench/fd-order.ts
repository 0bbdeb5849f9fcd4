/**
 * bench/fd-order: our A* + LM-Cut run in Fast Downward's order, beside Fast Downward's figures.
 *
 *   npm run bench:fd-order -- --fd /path/to/fast-downward.py [--filter s] [--time-limit S] [--fd-relevance]
 *
 * For every instance of <shared>/reference/fd-lmcut.jsonl that the reference solved with LM-Cut
 * (<shared> is $PDDL2PRM_SHARED, else ../shared relative to the cwd), this runs Fast Downward's
 * translator (in a temporary directory, removed afterwards), reads its output.sas and runs OUR
 * search code with Fast Downward's order injected:
 *   - the relaxed task of our LmCutHeuristic is built from the SAS+ task, with Fast Downward's
 *     proposition ids (variables in translator order, values in order; NegatedAtom and
 *     "<none of those>" values get ids too), its operator order and precondition order
 *     (prevail conditions, then effect preconditions), the goal operator last;
 *   - our states are mapped onto those propositions (one value per SAS+ variable, as in a
 *     Fast Downward state) before each evaluation;
 *   - successors are generated in the order of Fast Downward's successor generator (operators
 *     ordered by their sorted precondition list, a prefix before its extensions, ties by
 *     Fast Downward operator index);
 *   - our astarRun runs with our goal-relevance pruning, as `solve` does. Our analysis prunes
 *     facts where Fast Downward's translator prunes whole variables, so a few of Fast Downward's
 *     state distinctions can be missing (noted per row); `--fd-relevance` keeps every fact that is
 *     an atom of a Fast Downward variable and every operator Fast Downward kept, i.e. searches
 *     Fast Downward's state space.
 * It prints h0, expansions and evaluations beside the reference's, whether both counts are equal,
 * our search time (ms, without translation and setup) and diagnostics (notes). A search stops at
 * --time-limit seconds (default 120) and reports "limit".
 *
 * What it proves: where the counts are equal, our A* (tie-breaking, reopening, counting) and our
 * LM-Cut (h^max exploration, precondition choice, goal zone, cut, incremental update) are the same
 * algorithms as Fast Downward's, down to tie-breaking. The differences that remain in bench:solve
 * (h0 and expansions on some instances) then come only from the order of facts, operators and
 * successors, which Fast Downward takes from its translator's variable order (and, where a row
 * notes FD atoms on facts we prune, from our finer relevance pruning: see --fd-relevance).
 *
 * What it does not prove: anything about the order our product uses. `solve`, the oracle and the
 * labeller use our own fact/operator order (a causal-graph approximation), so their LM-Cut values
 * on some states and their expansion counts can still differ from Fast Downward's; optimal costs
 * and h* do not depend on it. Instances with conditional effects or axioms in the SAS+ task are
 * skipped, as are tasks where our createHeuristic(task, "lmcut") falls back to h^max.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import { ground } from "../src/task/ground.js";
import { SuccessorGenerator } from "../src/task/index.js";
import type { FdrTask } from "../src/task/fdr.js";
import type { GroundTask } from "../src/task/types.js";
import { astarRun, buildRelaxedTaskFromFdr, createHeuristic, goalRelevance, LmCutHeuristic, type AStarRun, type RelaxedTask, type Relevance } from "../src/search/index.js";
import type { Heuristic } from "../src/search/types.js";
import { arg, readReferences, type FdReference } from "./reference.js";
import { checkBenchFlags } from "./args.js";



// ---------------------------------------------------------------------------------------------
// output.sas

type Fact = [variable: number, value: number];

interface SasVariable {
  name: string;
  axiomLayer: number;
  values: string[];
}

interface SasEffect {
  conditions: Fact[];
  variable: number;
  /** -1: no precondition on the variable. */
  pre: number;
  post: number;
}

interface SasOperator {
  name: string;
  prevail: Fact[];
  effects: SasEffect[];
  cost: number;
}

interface SasTask {
  useMetric: boolean;
  variables: SasVariable[];
  init: number[];
  goal: Fact[];
  operators: SasOperator[];
  numAxioms: number;
}

class SasError extends Error {}

/** Parse Fast Downward's translator output (SAS+ file format, version 3). */
function parseSas(text: string): SasTask {
  const lines = text.split(/\r?\n/);
  let i = 0;
  const line = (what: string): string => {
    if (i >= lines.length) throw new SasError(`output.sas: unexpected end of file (expected ${what})`);
    return lines[i++]!.trim();
  };
  const magic = (m: string): void => {
    const l = line(m);
    if (l !== m) throw new SasError(`output.sas line ${i}: expected '${m}', got '${l}'`);
  };
  const int = (what: string): number => {
    const l = line(what);
    if (!/^-?\d+$/.test(l)) throw new SasError(`output.sas line ${i}: expected ${what}, got '${l}'`);
    return Number(l);
  };
  const ints = (what: string, n: number): number[] => {
    const l = line(what);
    const t = l.split(/\s+/);
    if (t.length !== n || t.some((x) => !/^-?\d+$/.test(x))) {
      throw new SasError(`output.sas line ${i}: expected ${n} integers (${what}), got '${l}'`);
    }
    return t.map(Number);
  };
  const checkFact = (v: number, val: number): Fact => {
    const vr = variables[v];
    if (vr === undefined || val < 0 || val >= vr.values.length) throw new SasError(`output.sas line ${i}: bad fact ${v}=${val}`);
    return [v, val];
  };
  const facts = (what: string): Fact[] => {
    const n = int(`number of ${what}`);
    const out: Fact[] = [];
    for (let k = 0; k < n; k++) {
      const [v, val] = ints(what, 2) as [number, number];
      out.push(checkFact(v, val));
    }
    return out;
  };

  magic("begin_version");
  const version = int("version");
  if (version !== 3) throw new SasError(`output.sas: version ${version}, expected 3`);
  magic("end_version");
  magic("begin_metric");
  const metric = int("metric");
  if (metric !== 0 && metric !== 1) throw new SasError(`output.sas: metric ${metric}, expected 0 or 1`);
  magic("end_metric");

  const variables: SasVariable[] = [];
  const numVars = int("number of variables");
  for (let v = 0; v < numVars; v++) {
    magic("begin_variable");
    const name = line("variable name");
    const axiomLayer = int("axiom layer");
    const n = int("domain size");
    const values: string[] = [];
    for (let k = 0; k < n; k++) values.push(line("value name"));
    magic("end_variable");
    variables.push({ name, axiomLayer, values });
  }

  const numMutex = int("number of mutex groups");
  for (let m = 0; m < numMutex; m++) {
    magic("begin_mutex_group");
    facts("mutex facts");
    magic("end_mutex_group");
  }

  magic("begin_state");
  const init: number[] = [];
  for (let v = 0; v < numVars; v++) init.push(checkFact(v, int("initial value"))[1]);
  magic("end_state");

  magic("begin_goal");
  const goal = facts("goal facts");
  magic("end_goal");

  const operators: SasOperator[] = [];
  const numOps = int("number of operators");
  for (let o = 0; o < numOps; o++) {
    magic("begin_operator");
    const name = line("operator name");
    const prevail = facts("prevail conditions");
    const ne = int("number of effects");
    const effects: SasEffect[] = [];
    for (let e = 0; e < ne; e++) {
      const l = line("effect");
      const t = l.split(/\s+/).map(Number);
      const nc = t[0]!;
      if (!Number.isInteger(nc) || nc < 0 || t.length !== 1 + 2 * nc + 3 || t.some((x) => !Number.isInteger(x))) {
        throw new SasError(`output.sas line ${i}: bad effect '${l}'`);
      }
      const conditions: Fact[] = [];
      for (let c = 0; c < nc; c++) conditions.push(checkFact(t[1 + 2 * c]!, t[2 + 2 * c]!));
      const variable = t[1 + 2 * nc]!;
      const pre = t[2 + 2 * nc]!;
      const post = t[3 + 2 * nc]!;
      checkFact(variable, post);
      if (pre !== -1) checkFact(variable, pre);
      effects.push({ conditions, variable, pre, post });
    }
    const cost = int("operator cost");
    magic("end_operator");
    operators.push({ name, prevail, effects, cost });
  }
  const numAxioms = int("number of axioms");
  return { useMetric: metric === 1, variables, init, goal, operators, numAxioms };
}

// ---------------------------------------------------------------------------------------------
// Fast Downward's order applied to our task

const norm = (s: string): string => s.trim().replace(/\s+/g, " ").toLowerCase();

/** "Atom pred(a, b)" -> "(pred a b)"; null for NegatedAtom, "<none of those>" and anything else. */
function atomToFactName(value: string): string | null {
  const m = /^Atom\s+([^(\s]+)\((.*)\)$/.exec(value.trim());
  if (!m) return null;
  const args = m[2]!
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
  return norm(`(${[m[1]!, ...args].join(" ")})`);
}

interface FdOrder {
  rt: RelaxedTask;
  heuristic: Heuristic;
  /** Our operator id -> position in Fast Downward's successor order (unmapped ops last). */
  rank: Int32Array;
  /** 1 per relevant operator of ours without a Fast Downward counterpart (no-ops excluded). */
  extra: Uint8Array;
  /** The state projection and operator mask the search uses. */
  factMask: Uint32Array;
  opMask: Uint8Array;
  notes: string[];
}

/**
 * Skip reason, or the relaxed task, state mapping and successor order in Fast Downward's order.
 * `rel` is our goal relevance; with `fdRelevance` the search also keeps every fact that is an atom
 * of a Fast Downward variable and every operator Fast Downward has (see --fd-relevance).
 */
function fdOrder(task: GroundTask, sas: SasTask, rel: Relevance, fdRelevance: boolean): FdOrder | string {
  if (sas.numAxioms > 0 || sas.variables.some((v) => v.axiomLayer !== -1)) return "SAS+ task has axioms";
  if (sas.operators.some((o) => o.effects.some((e) => e.conditions.length > 0))) return "SAS+ task has conditional effects";
  const notes: string[] = [];

  // propositions: variables in order, values in order; then TRUE and GOAL
  const ourFact = new Map<string, number>();
  task.factNames.forEach((n, f) => ourFact.set(norm(n), f));
  const propOf: Int32Array[] = [];
  let numProps = 0;
  const atomFacts: Int32Array[] = []; // per variable: [our fact, prop, our fact, prop, ...]
  const defaultProp = new Int32Array(sas.variables.length).fill(-1);
  let unmappedAtoms = 0;
  for (let v = 0; v < sas.variables.length; v++) {
    const vals = sas.variables[v]!.values;
    const ids = new Int32Array(vals.length);
    const pairs: number[] = [];
    for (let k = 0; k < vals.length; k++) {
      const p = numProps++;
      ids[k] = p;
      const name = atomToFactName(vals[k]!);
      if (name === null) {
        // NegatedAtom or <none of those>: a proposition of its own, true when no atom of the
        // variable holds
        if (defaultProp[v] === -1) defaultProp[v] = p;
        else notes.push(`var ${v} has several non-atom values`);
        continue;
      }
      const f = ourFact.get(name);
      if (f === undefined) unmappedAtoms++;
      else pairs.push(f, p);
    }
    propOf.push(ids);
    atomFacts.push(Int32Array.from(pairs));
  }
  if (unmappedAtoms > 0) notes.push(`${unmappedAtoms} FD atoms without our fact`);
  // Our relevance analysis prunes facts, Fast Downward's translator prunes variables (keeping all
  // values of a relevant one): an FD atom on a fact we prune is a distinction between states that
  // Fast Downward makes and our projected states do not (e.g. which stone is stuck in which goal
  // corner in Sokoban), so our search can expand fewer states. Unless --fd-relevance.
  const factMask = rel.factWords.slice();
  let maskedAtoms = 0;
  for (const a of atomFacts) {
    for (let k = 0; k < a.length; k += 2) {
      const f = a[k]!;
      if ((factMask[f >>> 5]! & (1 << (f & 31))) !== 0) continue;
      if (fdRelevance) factMask[f >>> 5]! |= 1 << (f & 31);
      else maskedAtoms++;
    }
  }
  if (maskedAtoms > 0) notes.push(`${maskedAtoms} FD atoms on facts we prune as irrelevant`);
  const numFacts = numProps + 2; // and TRUE, GOAL

  // our state -> Fast Downward state (one proposition per variable)
  const words = (numFacts + 31) >>> 5;
  const fdState = (s: Uint32Array, out: Uint32Array): void => {
    out.fill(0);
    for (let v = 0; v < atomFacts.length; v++) {
      const a = atomFacts[v]!;
      let q = defaultProp[v]!;
      for (let k = 0; k < a.length; k += 2) {
        const f = a[k]!;
        if ((s[f >>> 5]! & (1 << (f & 31))) !== 0) {
          q = a[k + 1]!;
          break;
        }
      }
      if (q >= 0) out[q >>> 5]! |= 1 << (q & 31);
    }
  };
  // sanity check: our (relevance-projected) initial state is Fast Downward's
  {
    const init = task.init.slice();
    for (let w = 0; w < init.length; w++) init[w]! &= factMask[w]!;
    const mine = new Uint32Array(words);
    fdState(init, mine);
    let diff = 0;
    for (let v = 0; v < sas.variables.length; v++) {
      const q = propOf[v]![sas.init[v]!]!;
      if ((mine[q >>> 5]! & (1 << (q & 31))) === 0) diff++;
    }
    if (diff > 0) notes.push(`initial state differs on ${diff} FD variables`);
  }

  // relaxed operators in Fast Downward's order
  const ourOp = new Map<string, number>();
  task.opNames.forEach((n, o) => ourOp.set(norm(n), o));
  const costs: number[] = [];
  const origins: number[] = [];
  const sortedPre: Fact[][] = [];
  let unmappedOps = 0;
  let costDiff = 0;
  let maskedOps = 0;
  const opMask = rel.ops.slice();
  const mapped = new Uint8Array(task.numOps);
  for (const op of sas.operators) {
    const preFacts: Fact[] = [...op.prevail];
    for (const e of op.effects) if (e.pre !== -1) preFacts.push([e.variable, e.pre]);
    const cost = sas.useMetric ? op.cost : 1;
    const o = ourOp.get(norm(`(${op.name})`));
    if (o === undefined) unmappedOps++;
    else {
      if (mapped[o] === 1) notes.push(`FD operator '${op.name}' maps to an our-op twice`);
      mapped[o] = 1;
      if (task.opCost[o] !== cost) costDiff++;
      if (opMask[o] === 0) {
        if (fdRelevance) opMask[o] = 1;
        else maskedOps++;
      }
    }
    costs.push(cost);
    origins.push(o ?? -1);
    sortedPre.push(preFacts.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  }
  if (unmappedOps > 0) notes.push(`${unmappedOps} FD operators without our op`);
  if (costDiff > 0) notes.push(`${costDiff} operator costs differ`);
  if (maskedOps > 0) notes.push(`${maskedOps} FD operators we prune as irrelevant`);
  // relevant ops of ours that Fast Downward's translator dropped and that would change a state:
  // counted when generated (the translator drops ops that are unreachable or have mutex
  // preconditions, e.g. (stack a a), which we keep; those are never applicable)
  const extra = new Uint8Array(task.numOps);
  for (let o = 0; o < task.numOps; o++) if (opMask[o] === 1 && mapped[o] === 0 && !isNoOp(task, o)) extra[o] = 1;
  // the SAS+ task as an FdrTask: buildRelaxedTaskFromFdr numbers (variable, value) facts
  // variable by variable, as `propOf` does
  const fdr: FdrTask = {
    ranges: Int32Array.from(sas.variables, (v) => v.values.length),
    values: sas.variables.map((v) => new Int32Array(v.values.length).fill(-1)),
    init: Int32Array.from(sas.init),
    goal: Int32Array.from(sas.goal.flat()),
    ops: sas.operators.map((op, k) => ({
      origin: origins[k]!,
      prevail: Int32Array.from(op.prevail.flat()),
      prePost: Int32Array.from(op.effects.flatMap((e) => [e.variable, e.pre, e.post])),
      cost: costs[k]!,
    })),
  };
  const rt = buildRelaxedTaskFromFdr(fdr);
  const lm = new LmCutHeuristic(task, rt);
  const buf = new Uint32Array(words);
  const heuristic: Heuristic = {
    name: "lmcut (Fast Downward order)",
    evaluate(s: Uint32Array): number {
      fdState(s, buf);
      return lm.evaluate(buf);
    },
  };

  // Fast Downward's successor generator: a decision tree over the sorted precondition lists, so
  // applicable operators come out in lexicographic order of those lists (a prefix first), ties
  // by operator index
  const byGenerator = sas.operators
    .map((_, k) => k)
    .sort((a, b) => {
      const A = sortedPre[a]!;
      const B = sortedPre[b]!;
      for (let k = 0; k < Math.min(A.length, B.length); k++) {
        const c = A[k]![0] - B[k]![0] || A[k]![1] - B[k]![1];
        if (c !== 0) return c;
      }
      return A.length - B.length || a - b;
    });
  const rank = new Int32Array(task.numOps);
  for (let o = 0; o < task.numOps; o++) rank[o] = byGenerator.length + o;
  byGenerator.forEach((k, r) => {
    const o = origins[k]!;
    if (o >= 0) rank[o] = r;
  });
  return { rt, heuristic, rank, extra, factMask, opMask, notes };
}

/** True if applying `o` never changes a state: no conditional effects, adds among its preconditions, deletes re-added. */
function isNoOp(task: GroundTask, o: number): boolean {
  if (task.ceStart[o + 1]! > task.ceStart[o]!) return false;
  const pre = task.pre.subarray(task.preStart[o]!, task.preStart[o + 1]!);
  const add = task.add.subarray(task.addStart[o]!, task.addStart[o + 1]!);
  for (let j = task.addStart[o]!; j < task.addStart[o + 1]!; j++) if (!pre.includes(task.add[j]!)) return false;
  for (let j = task.delStart[o]!; j < task.delStart[o + 1]!; j++) if (!add.includes(task.del[j]!)) return false;
  return true;
}

/**
 * Our successor generator, its applicable operators reordered like Fast Downward's; counts how
 * often an operator Fast Downward does not have (`extra`) comes out.
 */
class FdOrderSuccessors extends SuccessorGenerator {
  extraGenerated = 0;
  constructor(
    task: GroundTask,
    private readonly rank: Int32Array,
    private readonly extra: Uint8Array,
  ) {
    super(task);
  }
  override applicable(state: Uint32Array, out: number[]): void {
    super.applicable(state, out);
    const rank = this.rank;
    out.sort((a, b) => rank[a]! - rank[b]!);
    for (let i = 0; i < out.length; i++) this.extraGenerated += this.extra[out[i]!]!;
  }
}

/** Run Fast Downward's translator in `dir`; the text of output.sas, or an error message. */
function translate(fd: string, domain: string, problem: string, dir: string, timeLimit: number): { sas: string } | { error: string } {
  const r = spawnSync("python3", [fd, "--translate-time-limit", `${timeLimit}s`, "--translate", domain, problem], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 << 20,
    timeout: (timeLimit + 60) * 1000,
  });
  const sasPath = join(dir, "output.sas");
  if (r.status !== 0 || !existsSync(sasPath)) {
    const tail = `${r.stdout ?? ""}\n${r.stderr ?? ""}`.trim().split("\n").slice(-1)[0] ?? "";
    return { error: `translator failed (${r.error ? r.error.message : `exit ${r.status}`}): ${tail}` };
  }
  return { sas: readFileSync(sasPath, "utf8") };
}

// ---------------------------------------------------------------------------------------------

function main(): void {
  const fd = arg("--fd");
  if (fd === undefined) {
    process.stderr.write(
      "bench:fd-order needs Fast Downward's translator: npm run bench:fd-order -- --fd /path/to/fast-downward.py [--filter s] [--time-limit S]\n",
    );
    process.exitCode = 1;
    return;
  }
  if (!existsSync(fd)) {
    process.stderr.write(`bench:fd-order: ${fd} not found\n`);
    process.exitCode = 1;
    return;
  }
  const loaded = readReferences("bench:fd-order");
  if (loaded === null) return;
  const { shared } = loaded;
  const timeLimit = Number(arg("--time-limit") ?? "120");
  if (!(timeLimit > 0)) {
    process.stderr.write("bench:fd-order: --time-limit must be a positive number of seconds\n");
    process.exitCode = 1;
    return;
  }
  const filter = arg("--filter");
  const fdRelevance = process.argv.includes("--fd-relevance");
  const refs = loaded.refs
    .filter((r) => r.solved && (r.search_config ?? "").includes("lmcut"))
    .filter((r) => (filter ? r.problem.includes(filter) : true));

  console.log(["instance", "h0", "ref", "expanded", "ref", "evaluated", "ref", "exact", "ms", "notes"].join("\t"));
  let compared = 0;
  let exact = 0;
  let hEqual = 0;
  const differ: string[] = [];
  const skipped: string[] = [];
  for (const ref of refs) {
    const domain = join(shared, "ipc", ref.domain);
    const problem = join(shared, "ipc", ref.problem);
    const skip = (why: string): void => {
      console.log([ref.problem, "-", ref.initial_h ?? "-", "-", ref.expanded ?? "-", "-", ref.evaluated ?? "-", "-", "-", `skipped: ${why}`].join("\t"));
      skipped.push(`${ref.problem} (${why})`);
    };
    const d = parseDomainFile(domain);
    const p = parseProblemFile(problem, d);
    const task = ground(d, p);
    if (createHeuristic(task, "lmcut").name !== "lmcut") {
      skip("our lmcut falls back to hmax");
      continue;
    }
    const dir = mkdtempSync(join(tmpdir(), "fd-order-"));
    let sasText: string;
    try {
      const t = translate(fd, domain, problem, dir, timeLimit);
      if ("error" in t) {
        skip(t.error);
        continue;
      }
      sasText = t.sas;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    let sas: SasTask;
    try {
      sas = parseSas(sasText);
    } catch (e) {
      if (!(e instanceof SasError)) throw e;
      skip(e.message);
      continue;
    }
    const rel = goalRelevance(task);
    const order = fdOrder(task, sas, rel, fdRelevance);
    if (typeof order === "string") {
      skip(order);
      continue;
    }
    const gen = new FdOrderSuccessors(task, order.rank, order.extra);
    let r: AStarRun;
    try {
      r = astarRun(task, order.heuristic, {
        limits: { timeMs: timeLimit * 1000 },
        opMask: order.opMask,
        factMask: order.factMask,
        successorGenerator: gen,
      });
    } catch (e) {
      // a failure of our code on this instance: a difference, not a reason to stop the bench
      const msg = e instanceof Error ? e.message : String(e);
      compared++;
      differ.push(`${ref.problem}: error: ${msg}`);
      console.log([ref.problem, "error", ref.initial_h ?? "-", "error", ref.expanded ?? "-", "error", ref.evaluated ?? "-", "no", "-", `error: ${msg}`].join("\t"));
      continue;
    }
    const notes = [...order.notes];
    if (gen.extraGenerated > 0) notes.push(`${gen.extraGenerated} successors by ops FD does not have`);
    compared++;
    const h0Same = r.initialH === (ref.initial_h ?? null);
    if (h0Same) hEqual++;
    const solved = r.status === "solved";
    const same = solved && r.expanded === ref.expanded && r.evaluated === ref.evaluated;
    if (same) exact++;
    if (r.status === "limit") notes.push(`time limit after ${r.expanded} expansions`);
    else if (!solved) notes.push(r.status);
    else if (r.cost !== ref.cost) notes.push(`cost ${r.cost} vs ref ${ref.cost}`);
    if (solved && !same && ref.expanded_until_last_jump !== undefined) {
      // equal: the searches agree up to the last f layer, only its ties differ
      notes.push(`expanded until last jump ${r.expandedUntilLastJump}/${ref.expanded_until_last_jump}`);
    }
    if (!same || !h0Same) {
      differ.push(
        solved
          ? `${ref.problem}: h0 ${r.initialH}/${ref.initial_h}, expanded ${r.expanded}/${ref.expanded}, evaluated ${r.evaluated}/${ref.evaluated}`
          : `${ref.problem}: ${r.status} (h0 ${r.initialH ?? "inf"}/${ref.initial_h}, ${r.expanded} expansions in ${(r.searchMs / 1000).toFixed(0)} s)`,
      );
    }
    console.log(
      [
        ref.problem,
        r.initialH ?? "inf",
        ref.initial_h ?? "-",
        solved ? r.expanded : r.status,
        ref.expanded ?? "-",
        solved ? r.evaluated : r.status,
        ref.evaluated ?? "-",
        same ? "yes" : "no",
        r.searchMs.toFixed(1),
        notes.length > 0 ? notes.join("; ") : "-",
      ].join("\t"),
    );
  }
  console.log("");
  console.log(`exact expanded and evaluated: ${exact}/${compared}`);
  console.log(`h0 equal: ${hEqual}/${compared}`);
  console.log(`differ (${differ.length}):${differ.length === 0 ? " none" : ""}`);
  for (const x of differ) console.log(`  ${x}`);
  console.log(`skipped (${skipped.length}):${skipped.length === 0 ? " none" : ""}`);
  for (const x of skipped) console.log(`  ${x}`);
}

checkBenchFlags("bench/fd-order", "usage: npm run bench:fd-order -- --fd PATH/fast-downward.py [--filter s] [--time-limit S] [--fd-relevance]", { values: ["--fd", "--filter", "--time-limit"], switches: ["--fd-relevance"] });
main();
