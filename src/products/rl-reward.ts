/**
 * Verifiable rewards for RL (docs/rl.md): a pure function from (problem reference, a model's
 * answer) to an outcome reward, per-step rewards and their documented mix, computed by `judge`'s
 * engine (a `JudgeSession`: parsed domains, ground tasks and h* caches stay warm across calls).
 *
 * - outcome: 1 for a valid plan (every step read and applicable in turn, goal reached at the
 *   end: `judge`'s `valid`), times optimal_cost / cost when `scaleByCost` (the default); else 0.
 * - dense: the judge's exact reward of every extracted step (0 non-executable or unparseable,
 *   0.25 dead end, 0.5 backtracking, 0.75 suboptimal, 1 optimal), with where the step ends in
 *   the answer (`step_ends`, character offsets) so that a process-reward trainer puts each on the
 *   step's last token.
 * - progress: (h*(s0) - h*(s_end)) / h*(s0), clamped to [0, 1] (0 at a dead end).
 * - process: mean step reward x progress (a short answer of good steps does not score as a plan).
 * - reward (the mix): w * outcome + (1 - w) * process, w = `outcomeWeight` (default 0.5). A valid
 *   optimal plan scores 1; a valid plan costing twice the optimum 0.25 + 0.5 x mean step reward.
 *
 * A request names its problem as `judge --jsonl` does (built-in name, file path or PDDL text for
 * `domain`; file, text or a shipped problem name for `problem`), so a reward server can call
 * `RewardSession.rewardLine` on the bodies it receives.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Domain, Problem } from "../pddl/ast.js";
import { parseDomain, parseProblem, PddlError, UserError } from "../pddl/index.js";
import { LimitError } from "../search/types.js";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir } from "../generators/index.js";
import { RecentMap } from "../util/recent-map.js";
import { builtinNameOf, isText, JudgeSession, readSpecFile, type JudgeSessionOptions } from "./judge-session.js";
import type { JudgeCategory, Judgement } from "./judge.js";
import { extractPlan, vocabularyOf, type ExtractedStep, type Extraction, type PlanVocabulary } from "./rl-extract.js";

/** How rewards are computed (see the module comment). */
export interface RewardOptions {
  /** Scale the outcome of a valid plan by optimal_cost / cost (default true). */
  scaleByCost?: boolean;
  /** Weight of the outcome in `reward`; the rest is `process` (default 0.5). */
  outcomeWeight?: number;
}

const ChatMessageSchema = z.object({ role: z.string(), content: z.string() }).passthrough();

/** One request line of `reward --jsonl` (and the body a reward server passes on). */
export const RewardRequestSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    /** A built-in domain name, a domain file path, or PDDL text (default: the session's). */
    domain: z.string().min(1).optional(),
    /** A problem file path, PDDL text, or a shipped problem of a built-in domain. */
    problem: z.string().min(1).optional(),
    /** The model's answer: text, or chat messages (the last assistant message is read). */
    completion: z.union([z.string(), z.array(ChatMessageSchema)]),
    /** Seeds the critiques' wording (default 0). */
    seed: z.number().int().optional(),
    scale_by_cost: z.boolean().optional(),
    outcome_weight: z.number().min(0).max(1).optional(),
  })
  .strict();
export type RewardRequest = z.infer<typeof RewardRequestSchema>;

/** One step of a rewarded answer. */
export interface RewardedStep {
  index: number;
  /** What the judge read: PDDL or step text. */
  text: string;
  /** The line as the model wrote it, and its character offsets [start, end) in the answer. */
  source: string;
  start: number;
  end: number;
  action: string | null;
  category: JudgeCategory;
  reward: number;
  executed: boolean;
  /** Why the step is unparseable (or why the answer has no plan), else null. */
  error: string | null;
  critique: string;
}

/** The rewards of one answer (`reward --json`, one line of `reward --jsonl`). */
export interface RewardResult {
  /** The mix: outcomeWeight * outcome + (1 - outcomeWeight) * process. */
  reward: number;
  /** 1 (or optimal_cost / cost) for a valid plan, else 0. */
  outcome: number;
  /** Mean step reward x progress. */
  process: number;
  /** (h*(s0) - h*(end)) / h*(s0) in [0, 1]; 0 at a dead end. */
  progress: number;
  /** Per-step rewards (dense), one per step, in order. */
  step_rewards: number[];
  /** Character offset in the answer where each step ends (exclusive): place step_rewards[i] on the token ending there. */
  step_ends: number[];
  steps: RewardedStep[];
  valid: boolean;
  goal_reached: boolean;
  cost: number;
  optimal_cost: number | null;
  remaining_cost: number | null;
  first_error: number | null;
  first_rejected: number | null;
  /** How the plan was found (lines, inline, prose, none) and why none was. */
  extraction: { mode: Extraction["mode"]; steps: number; reason: string | null };
}

export const DEFAULT_OUTCOME_WEIGHT = 0.5;

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * The rewards of an extracted plan from the judgement of its steps (`judgement.steps[i]` is
 * the judgement of `steps[i]`). Pure: the same inputs give the same numbers.
 */
export function rewardsOf(steps: readonly ExtractedStep[], judgement: Judgement, extraction: Extraction, answerLength: number, options: RewardOptions = {}): RewardResult {
  const w = options.outcomeWeight ?? DEFAULT_OUTCOME_WEIGHT;
  const scale = options.scaleByCost ?? true;
  const out: RewardedStep[] = judgement.steps.map((j, i) => ({
    index: i,
    text: steps[i]!.text,
    source: steps[i]!.source,
    start: steps[i]!.start,
    end: steps[i]!.end,
    action: j.action,
    category: j.category,
    reward: j.reward,
    executed: j.executed,
    error: j.error,
    critique: j.critique,
  }));
  const opt = judgement.optimal_cost;
  const rem = judgement.remaining_cost;
  let progress = 0;
  if (opt !== null && rem !== null) progress = opt === 0 ? (rem === 0 ? 1 : 0) : Math.min(1, Math.max(0, (opt - rem) / opt));
  const mean = out.length === 0 ? 0 : out.reduce((a, s) => a + s.reward, 0) / out.length;
  const process = mean * progress;
  const outcome = judgement.valid ? (scale && opt !== null && judgement.cost > 0 ? Math.min(1, opt / judgement.cost) : 1) : 0;
  if (out.length === 0) {
    // no plan: one step, reward 0, with the reason (the dense reward always has a step)
    out.push({
      index: 0, text: "", source: "", start: 0, end: answerLength, action: null, category: "unparseable", reward: 0, executed: false,
      error: extraction.reason ?? "no plan found", critique: `No plan was found in the answer (${extraction.reason ?? "no step"}).`,
    });
  }
  return {
    reward: round(w * outcome + (1 - w) * process),
    outcome: round(outcome),
    process: round(process),
    progress: round(progress),
    step_rewards: out.map((s) => s.reward),
    step_ends: out.map((s) => s.end),
    steps: out,
    valid: judgement.valid,
    goal_reached: judgement.goal_reached,
    cost: judgement.cost,
    optimal_cost: opt,
    remaining_cost: rem,
    first_error: judgement.first_error,
    first_rejected: judgement.first_rejected,
    extraction: { mode: extraction.mode, steps: judgement.steps.length, reason: extraction.reason },
  };
}

/** The text of an answer given as chat messages: the last assistant message (else the last message). */
export function answerText(completion: string | ReadonlyArray<{ role: string; content: string }>): string {
  if (typeof completion === "string") return completion;
  const assistant = completion.filter((m) => m.role === "assistant");
  return (assistant.at(-1) ?? completion.at(-1))?.content ?? "";
}

/** Keep the judged steps of `keep` and re-derive the plan-level fields (rejected steps change nothing). */
function keepSteps(j: Judgement, keep: readonly boolean[]): Judgement {
  const steps = j.steps.filter((_, i) => keep[i]).map((s, i) => ({ ...s, index: i }));
  const first = (p: (s: (typeof steps)[number]) => boolean): number | null => {
    const i = steps.findIndex(p);
    return i < 0 ? null : i;
  };
  return {
    ...j,
    steps,
    first_error: first((s) => s.reward < 1),
    first_rejected: first((s) => !s.executed),
    valid: steps.every((s) => s.executed) && j.goal_reached,
  };
}

export interface RewardSessionOptions extends JudgeSessionOptions, RewardOptions {}

/** Rewards many answers of many problems; judging goes through one warm `JudgeSession`. */
export class RewardSession {
  readonly judge: JudgeSession;
  private readonly options: RewardSessionOptions;
  private readonly vocabularies = new RecentMap<string, PlanVocabulary>(64);
  private readonly domains = new RecentMap<string, { domain: Domain; builtin: string | null }>(16);

  constructor(options: RewardSessionOptions = {}) {
    this.options = options;
    this.judge = new JudgeSession(options);
  }

  /** The action and object names of a problem, as a request names it. */
  vocabulary(domainSpec: string, problemSpec: string): PlanVocabulary {
    const key = `${domainSpec}\0${problemSpec}`;
    const hit = this.vocabularies.get(key);
    if (hit !== undefined) return hit;
    // reading and parsing cannot look at a clock: said to the session's watcher (`onBlind`),
    // only here (a blind phase makes a `serve` worker send the answers it holds)
    const on = this.options.onBlind;
    on?.(true);
    try {
      return this.readVocabulary(domainSpec, problemSpec, key);
    } finally {
      on?.(false);
    }
  }

  private readVocabulary(domainSpec: string, problemSpec: string, key: string): PlanVocabulary {
    const { domain, builtin } = this.domain(domainSpec);
    let text: string;
    let file: string;
    if (isText(problemSpec)) {
      text = problemSpec;
      file = "<request problem>";
    } else {
      const shipped = builtin !== null && /^[\w.-]+$/.test(problemSpec) ? join(builtinProblemsDir(builtin), problemSpec.endsWith(".pddl") ? problemSpec : `${problemSpec}.pddl`) : null;
      file = shipped !== null && existsSync(shipped) ? shipped : problemSpec;
      text = readSpecFile(file, "problem");
    }
    const problem: Problem = parseProblem(text, file, domain);
    const v = vocabularyOf(domain, problem);
    this.vocabularies.set(key, v);
    return v;
  }

  private domain(spec: string): { domain: Domain; builtin: string | null } {
    const hit = this.domains.get(spec);
    if (hit !== undefined) return hit;
    let entry: { domain: Domain; builtin: string | null };
    if (isText(spec)) {
      const domain = parseDomain(spec, "<request domain>");
      entry = { domain, builtin: builtinNameOf(domain) };
    } else {
      const b = BUILTIN_DOMAINS.find((x) => x.name === spec.toLowerCase());
      const file = b !== undefined ? builtinDomainFile(b.name) : spec;
      const domain = parseDomain(readSpecFile(file, "domain"), file);
      entry = { domain, builtin: b !== undefined ? b.name : builtinNameOf(domain) };
    }
    this.domains.set(spec, entry);
    return entry;
  }

  /**
   * The rewards of one answer. Throws UserError/PddlError for a bad request (unknown problem,
   * bad PDDL) and LimitError past the time limit (`timeMs` from this call, the session's by
   * default, or the absolute `deadline` in `performance.now()` ms, whichever comes first); any
   * answer text is fine.
   */
  reward(request: Omit<RewardRequest, "completion"> & { completion: string | ReadonlyArray<{ role: string; content: string }> }, timeMs?: number, deadline = Infinity): RewardResult {
    const domain = request.domain ?? this.options.domain;
    const problem = request.problem ?? this.options.problem;
    if (domain === undefined) throw new UserError("the request names no domain");
    if (problem === undefined) throw new UserError("the request names no problem");
    const answer = answerText(request.completion);
    const vocabulary = this.vocabulary(domain, problem);
    const extraction = extractPlan(answer, vocabulary);
    const seed = request.seed ?? this.options.seed;
    const j = this.judge.judge({ domain, problem, steps: extraction.steps.map((s) => s.text), ...(seed !== undefined ? { seed } : {}) }, timeMs, deadline);
    let steps = extraction.steps;
    let judgement = j;
    if (extraction.mode === "prose") {
      // candidates from prose lines are steps only where the judge read an action
      const keep = j.steps.map((s) => s.category !== "unparseable");
      steps = steps.filter((_, i) => keep[i]);
      judgement = keepSteps(j, keep);
    }
    const ex: Extraction = steps.length === 0 && extraction.mode === "prose" ? { steps: [], mode: "none", reason: "no plan found: no line of the answer names an action" } : extraction;
    return rewardsOf(steps, judgement, ex, answer.length, {
      scaleByCost: request.scale_by_cost ?? this.options.scaleByCost ?? true,
      outcomeWeight: request.outcome_weight ?? this.options.outcomeWeight ?? DEFAULT_OUTCOME_WEIGHT,
    });
  }

  /**
   * Parse and reward one JSON line: the result, or `{error}` (with the request's id). Only
   * internal errors throw. `deadline` (`performance.now()` ms: when the line arrived plus the
   * limit) bounds it besides the session's `timeMs`.
   */
  rewardLine(line: string, deadline = Infinity): Record<string, unknown> {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      return { error: `not JSON: ${(e as Error).message}` };
    }
    const id = raw !== null && typeof raw === "object" && "id" in raw ? (raw as { id: unknown }).id : undefined;
    const withId = (o: Record<string, unknown>) => (id === undefined ? o : { id, ...o });
    const parsed = RewardRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return withId({ error: `bad request: ${issue.path.join(".") || "line"}: ${issue.message}` });
    }
    try {
      return withId({ ...this.reward(parsed.data, undefined, deadline) });
    } catch (e) {
      if (e instanceof PddlError) return withId({ error: e.format() });
      if (e instanceof UserError) return withId({ error: e.message });
      if (e instanceof LimitError) return withId({ error: `limit reached: ${e.message}` });
      throw e;
    }
  }
}

const defaultSession = new RewardSession({ cacheSize: 16 });

/**
 * The rewards of a model's answer to a problem: `domain` and `problem` as `judge` takes them
 * (built-in name, file path, PDDL text; a shipped problem name), `answer` the model's text (or
 * chat messages). Problems stay prepared across calls (the last 16).
 */
export function rewardAnswer(domain: string, problem: string, answer: string | ReadonlyArray<{ role: string; content: string }>, options: RewardOptions & { seed?: number; timeMs?: number } = {}): RewardResult {
  return defaultSession.reward(
    {
      domain,
      problem,
      completion: answer,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.scaleByCost !== undefined ? { scale_by_cost: options.scaleByCost } : {}),
      ...(options.outcomeWeight !== undefined ? { outcome_weight: options.outcomeWeight } : {}),
    },
    options.timeMs,
  );
}
