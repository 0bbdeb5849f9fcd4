/**
 * `judge`: the exact label of every step of any plan (an LLM's, a user's), each relative to the
 * state the plan has really reached and the states it has visited (DESIGN.md §6, §13).
 *
 * Semantics, as an environment that executes the plan would have them:
 * - A step is judged at the true state s_t reached by the executed steps before it, with the
 *   visited set V = the states s_0..s_t along those executed steps: exactly what
 *   `pddl2prm label --prefix <the executed steps before it> --action <step>` answers.
 * - A non-executable step is rejected: the state stays put and the step does not join the
 *   prefix (reward 0.0). An unparseable step (text that names no action of the domain, an
 *   unknown object, a wrong arity) is its own outcome, `unparseable`, reward 0.0, also rejected.
 * - After a dead end (h* = ∞) no action leads back to a solvable state, so every later
 *   executable step is a dead end as well (0.25) and non-executable ones stay 0.0.
 * - Steps after the goal is reached are judged like any other (an extra step from a goal state
 *   is a detour or worse).
 */
import type { Domain, Problem } from "../pddl/ast.js";
import { findOperator, ground, GroundingLimit, isGoal, resolveGroundAction, type GroundOptions } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import { classify, type Label } from "../label/classify.js";
import { applicableVariant, checkDeadline, createLabelContext, hstar, successor, type LabelContext, type LabelLimits } from "../label/context.js";
import { groundingName } from "../label/sample.js";
import type { Candidate, Category, Evidence, LabeledStep } from "../label/types.js";
import { createRenderer, secondPerson, type NlTemplates, type Renderer } from "../nl/index.js";
import { checkTime, LimitError } from "../search/types.js";
import { Prng } from "../util/prng.js";

/** The five categories of DESIGN.md §6, plus a step that names no action of the domain. */
export type JudgeCategory = Category | "unparseable";

/** One judged step, as `judge --json` prints it. */
export interface JudgedStep {
  /** 0-based position in the plan. */
  index: number;
  /** The step as given. */
  step: string;
  /** The ground action it names, PDDL ("(pick-up a)"); null when unparseable. */
  action: string | null;
  category: JudgeCategory;
  reward: number;
  /** Applied by the environment (false: rejected, the state stays put). */
  executed: boolean;
  /** Executed steps before this one: the walk index t of the state it is judged in. */
  state_index: number;
  /** Why the step got its label, addressed to whoever took it. */
  critique: string;
  h_before: number | null;
  h_after: number | null;
  cost: number | null;
  extra_cost: number | null;
  failed_preconditions: string[];
  backtrack_to: number | null;
  dead_end_proof: Evidence["deadEnd"];
  /** Why the step is unparseable (null otherwise). */
  error: string | null;
}

/** The judgement of a whole plan (`judge --json`). */
export interface Judgement {
  steps: JudgedStep[];
  /** Index of the first step that is not optimal where it is taken (reward < 1), or null. */
  first_error: number | null;
  /** Index of the first step the environment rejected (non-executable or unparseable), or null. */
  first_rejected: number | null;
  /**
   * The state after the last executed step satisfies the goal (rejected steps change nothing and
   * are skipped, so it can hold for a plan a validator rejects: reward `valid` for that).
   */
  goal_reached: boolean;
  /** The plan as given is valid: every step parsed and applicable in turn, and the goal reached (what VAL checks). */
  valid: boolean;
  /** Cost of the executed steps. */
  cost: number;
  /** h* of the initial state; null when the problem has no plan. */
  optimal_cost: number | null;
  /** h* of the final state (0 at the goal); null at a dead end. */
  remaining_cost: number | null;
}

/** A step resolved to a candidate action, or why it could not be. */
export type ResolvedStep = { candidate: Candidate } | { error: string };

/**
 * The executed steps of a replay and the true states they reach, s_0..s_T: one copy for the
 * whole replay, shared (read only) by its steps, so that a replay's memory grows with its length,
 * not with its square (issue 50).
 */
export interface ReplayWalk {
  /** Operator ids of the executed steps, in order. */
  readonly ops: readonly number[];
  /** The true states: `states[t]` is the state after the first t executed steps. */
  readonly states: readonly Uint32Array[];
}

/** One step replayed from s0 (see `replaySteps`). */
export interface ReplayedStep {
  resolved: ResolvedStep;
  /** The label at the true state; null when unparseable. */
  label: Label | null;
  executed: boolean;
  /** The true state the step is judged in (before it): `walk.states[stateIndex]`. */
  state: Uint32Array;
  /** Executed steps before it: the walk index t of `state`. */
  stateIndex: number;
  /** The replay's executed steps and states (shared by all its steps). */
  walk: ReplayWalk;
}

/** A chain of steps replayed against the true state (the core of judge, feedback and verifier). */
export interface Replay {
  steps: ReplayedStep[];
  /** The true state after the last step. */
  final: Uint32Array;
  /** Cost of the executed steps. */
  cost: number;
  /** The executed steps and the states they reach. */
  walk: ReplayWalk;
}

/**
 * Replay `steps` from the initial state, labelling each with the classifier at the true state
 * (visited set: the true states so far). Rejected steps (non-executable, unparseable) change
 * nothing, so later steps are judged where the agent really is. Memory: the steps' labels and
 * one state per executed step; time: each step's labelling (the visited index grows with the
 * walk, `visitedIndex`). The context's deadline is checked between steps too: a step whose h*
 * values are all cached never reaches a search that would check it.
 */
export function replaySteps(ctx: LabelContext, steps: readonly ResolvedStep[]): Replay {
  let s = ctx.task.init;
  // one array that only grows: classify's visited index is extended, not rebuilt, per state
  const visited: Uint32Array[] = [s];
  const ops: number[] = [];
  const walk: ReplayWalk = { ops, states: visited };
  const out: ReplayedStep[] = [];
  let cost = 0;
  for (const r of steps) {
    checkDeadline(ctx);
    if (!("candidate" in r)) {
      out.push({ resolved: r, label: null, executed: false, state: s, stateIndex: ops.length, walk });
      continue;
    }
    const label = classify(ctx, s, visited, r.candidate);
    const executed = label.category !== "non-executable";
    out.push({ resolved: r, label, executed, state: s, stateIndex: ops.length, walk });
    if (!executed) continue;
    const op = applicableVariant(ctx, s, r.candidate.schema, r.candidate.args);
    cost += ctx.task.opCost[op]!;
    ops.push(op);
    s = successor(ctx, s, op);
    visited.push(s);
  }
  return { steps: out, final: s, cost, walk };
}

/** The candidate of a type-correct grounding (operator -1 when grounding pruned it). */
export function candidateFor(ctx: LabelContext, schema: number, args: number[]): Candidate {
  const ops = findOperator(ctx.task, schema, args);
  return { schema, args, name: groundingName(ctx, schema, args), op: ops.length > 0 ? ops[0]! : -1 };
}

/**
 * Read one step: PDDL (`(pick-up a)`, any case) when it starts with '(', else step text in the
 * domain's natural language, parsed back by the renderer ("Step 3: Since ..., I pick up block
 * a. ...", or just "pick up block a").
 */
export function resolveStep(ctx: LabelContext, renderer: Renderer, text: string): ResolvedStep {
  const t = text.trim();
  if (t.length === 0) return { error: "empty step" };
  if (t.startsWith("(")) {
    const r = resolveGroundAction(ctx.task, t);
    return "error" in r ? { error: r.error } : { candidate: candidateFor(ctx, r.schema, r.args) };
  }
  const ended = /[.!]$/.test(t) ? t : `${t}.`;
  const r = renderer.parseStep(t) ?? renderer.parseStep(ended) ?? renderer.parseStep(`I ${ended}`);
  if (r === null) return { error: "the text names no action of this domain" };
  return { candidate: candidateFor(ctx, r.schema, r.args) };
}

/**
 * The critique of a replayed step in the second person ("you cannot ... because ..."): the
 * renderer's critique from the label evidence, never the category word alone.
 */
export function stepCritique(task: GroundTask, renderer: Renderer, r: ReplayedStep, prng: Prng): string {
  if (r.label === null || !("candidate" in r.resolved)) {
    const why = "error" in r.resolved ? r.resolved.error : "unreadable";
    return `This step cannot be carried out: ${why}, so nothing changes.`;
  }
  const { walk, stateIndex } = r;
  // the critic reads the walk's states (`walkStates`); the prefix arrays are made only if read
  let prefixOps: number[] | undefined;
  let prefix: string[] | undefined;
  const ls: LabeledStep = {
    problem: "",
    stateIndex,
    get prefixOps() {
      return (prefixOps ??= walk.ops.slice(0, stateIndex));
    },
    get prefix() {
      return (prefix ??= walk.ops.slice(0, stateIndex).map((op) => task.opNames[op]!));
    },
    walkStates: walk.states,
    candidate: r.resolved.candidate,
    category: r.label.category,
    reward: r.label.reward,
    evidence: r.label.evidence,
    planLength: 0,
    candidateIndex: 0,
  };
  return secondPerson(renderer.critique(ls, prng));
}

/** A task ready to judge: ground task, labelling context (h* caches) and renderer. */
export interface JudgeTask {
  readonly task: GroundTask;
  readonly ctx: LabelContext;
  readonly renderer: Renderer;
}

/** Options of a judge task. */
export interface JudgeTaskOptions {
  /** nl.json templates for step text and critiques (default: text from PDDL names). */
  templates?: NlTemplates | null;
  /** Explicit-space cap of the h* oracle (as `label --max-states`). */
  maxStates?: number;
  /** Per-query limits of the oracle (no whole-context deadline: the task is reused). */
  limits?: Omit<LabelLimits, "timeMs">;
  /** Grounding caps (`--max-ops`, `--max-facts`); over one, a GroundingLimit (a UserError). */
  groundCaps?: Pick<GroundOptions, "maxOps" | "maxFacts">;
  /**
   * Stop with LimitError once `performance.now()` passes this while preparing (grounding, the
   * oracle's build, the renderer): the first plan's time limit covers the work made for it.
   * The task keeps no deadline.
   */
  deadline?: number;
}

/** Ground a problem and build what judging its plans needs; reuse it across plans (warm h*). */
export function createJudgeTask(domain: Domain, problem: Problem, options: JudgeTaskOptions = {}): JudgeTask {
  const deadline = options.deadline ?? Infinity;
  let task: GroundTask;
  try {
    task = ground(domain, problem, { ...(options.groundCaps ?? {}), ...(deadline !== Infinity ? { deadline } : {}) });
  } catch (e) {
    // out of time is a limit like any other of the judgement (not bad input)
    if (e instanceof GroundingLimit && e.limit === "time") throw new LimitError(`time limit reached while grounding (${e.message})`);
    throw e;
  }
  const ms = options.maxStates;
  const ctx = createLabelContext(task, {
    ...(ms !== undefined ? { oracleMaxStates: ms } : {}),
    limits: { ...(options.limits ?? {}), ...(ms !== undefined ? { maxStates: ms } : {}) },
    ...(deadline !== Infinity ? { setupDeadline: deadline } : {}),
  });
  const renderer = createRenderer(task, options.templates ?? null, deadline);
  checkTime(deadline, "while preparing the problem");
  return { task, ctx, renderer };
}

/** Options of one judgement. */
export interface JudgeOptions {
  /** Seeds the paraphrase of each critique (default 0). */
  seed?: number;
  /** Time limit of this judgement in ms (from the call); a judgement over it throws LimitError. */
  timeMs?: number;
  /**
   * An absolute deadline (`performance.now()` ms), as a caller that started the clock earlier
   * (the command's start, parsing and grounding) gives it; the earlier of it and `timeMs` holds.
   */
  deadline?: number;
}

/** Judge `steps` (PDDL actions or step text) on a prepared task. Throws LimitError at a limit. */
export function judgeSteps(jt: JudgeTask, steps: readonly string[], options: JudgeOptions = {}): Judgement {
  // the task's caches are shared; only the deadline is this judgement's own
  const deadline = Math.min(options.timeMs !== undefined && options.timeMs > 0 ? performance.now() + options.timeMs : Infinity, options.deadline ?? Infinity);
  const ctx: LabelContext = deadline !== Infinity ? { ...jt.ctx, deadline } : jt.ctx;
  // the limit holds inside every search of the judgement, not per query
  const limits = jt.ctx.oracleLimits as { deadline?: number } | undefined;
  const before = limits?.deadline;
  if (limits !== undefined && deadline !== Infinity) limits.deadline = deadline;
  try {
    return judgeWithin(jt, ctx, steps, options);
  } finally {
    if (limits !== undefined) {
      if (before === undefined) delete limits.deadline;
      else limits.deadline = before;
    }
  }
}

function judgeWithin(jt: JudgeTask, ctx: LabelContext, steps: readonly string[], options: JudgeOptions): Judgement {
  const { task, renderer } = jt;
  const resolved = steps.map((t) => {
    checkDeadline(ctx);
    return resolveStep(ctx, renderer, t);
  });
  const replay = replaySteps(ctx, resolved);
  const seed = options.seed ?? 0;
  const out: JudgedStep[] = replay.steps.map((r, i) => {
    checkDeadline(ctx);
    const l = r.label;
    const ev = l?.evidence ?? null;
    return {
      index: i,
      step: steps[i]!,
      action: "candidate" in r.resolved ? r.resolved.candidate.name : null,
      category: l?.category ?? "unparseable",
      reward: l?.reward ?? 0,
      executed: r.executed,
      state_index: r.stateIndex,
      critique: stepCritique(task, renderer, r, new Prng(seed, `judge/${i}`)),
      h_before: ev?.hBefore ?? null,
      h_after: ev?.hAfter ?? null,
      cost: ev?.cost ?? null,
      extra_cost: ev?.extraCost ?? null,
      failed_preconditions: ev?.failedPreconditions ?? [],
      backtrack_to: ev?.backtrackTo ?? null,
      dead_end_proof: ev?.deadEnd ?? null,
      error: "error" in r.resolved ? r.resolved.error : null,
    };
  });
  const h0 = hstar(ctx, task.init);
  const hEnd = hstar(ctx, replay.final);
  const first = (p: (s: JudgedStep) => boolean): number | null => {
    const i = out.findIndex(p);
    return i < 0 ? null : i;
  };
  return {
    steps: out,
    first_error: first((s) => s.reward < 1),
    first_rejected: first((s) => !s.executed),
    goal_reached: isGoal(task, replay.final),
    valid: out.every((s) => s.executed) && isGoal(task, replay.final),
    cost: replay.cost,
    optimal_cost: h0 === Infinity ? null : h0,
    remaining_cost: hEnd === Infinity ? null : hEnd,
  };
}

/**
 * The steps of a plan file: blank lines and `;` comments skipped; a line starting with '(' holds
 * one or more PDDL actions (Fast Downward's plan format), any other line is one step of text.
 */
export function planSteps(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (line.length === 0 || line.startsWith(";")) continue;
    if (!line.startsWith("(")) {
      out.push(line);
      continue;
    }
    const semi = line.indexOf(";");
    if (semi >= 0) line = line.slice(0, semi).trim();
    const groups = line.match(/\([^()]*\)/g) ?? [];
    // a line that is not only actions stays whole: it is judged unparseable
    if (groups.join("").replace(/\s+/g, "") === line.replace(/\s+/g, "")) out.push(...groups);
    else out.push(line);
  }
  return out;
}
