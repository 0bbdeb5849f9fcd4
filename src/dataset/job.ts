import { parseDomain, parseProblem } from "../pddl/index.js";
import { UserError } from "../pddl/errors.js";
import type { Domain } from "../pddl/ast.js";
import { ground, GroundingLimit } from "../task/index.js";
import { applyOp, isApplicable } from "../task/state.js";
import type { GroundTask } from "../task/types.js";
import { labelProblemSteps, operatorCandidate, ProblemSkipped } from "../label/index.js";
import type { LabeledStep } from "../label/types.js";
import { createRenderer, loadTemplates, loadTemplatesFile, parseTemplatesText } from "../nl/index.js";
import type { NlTemplates } from "../nl/index.js";
import { Prng } from "../util/prng.js";
import { formatRow, type Format } from "./formats.js";
import { formatFloat, oneLine, trainerPrompt } from "../products/layout.js";
import { placeholderProblem, stepwiseTokens, tokenCounter, type TokenCounter } from "./length.js";
import type { NativeRow } from "./row.js";
import { isEvalFormat, runEvalJob } from "./eval-job.js";
import { problemTextOf } from "./problems.js";
import { emptyCounts, type CategoryCounts, type JobConfig, type JobResult, type ProblemJob } from "./records.js";

export { emptyCounts, type CategoryCounts, type JobConfig, type JobResult, type ProblemJob };

/** Stable id of a problem across a multi-domain run. */
export function problemKey(domainName: string, problemId: string): string {
  return `${domainName}/${problemId}`;
}

/**
 * Id of the row of a labelled step: `domain/problem/tTT/cC`, with `bB/` before `tTT` for a step
 * of a recovery branch (its states are numbered along the branch walk, so without the branch
 * they would share ids with main-walk rows).
 */
export function stepRowId(domainName: string, problemId: string, step: Pick<LabeledStep, "stateIndex" | "candidateIndex" | "branch">): string {
  const branch = step.branch ? `b${step.branch}/` : "";
  return `${domainName}/${problemId}/${branch}t${String(step.stateIndex).padStart(2, "0")}/c${step.candidateIndex}`;
}

// Parsed domains and templates are cached per worker: a run labels many problems of few domains.
// Domains by file, then by text (compared, not hashed: a key holding the whole text cost a hash
// of the domain for every problem); templates by the parsed domain they were compiled against.
const domainCache = new Map<string, Array<{ text: string; domain: Domain }>>();
const builtinTemplates = new Map<string, NlTemplates | null>();
const fileTemplates = new WeakMap<Domain, Map<string, NlTemplates | null>>();

function cachedDomain(job: ProblemJob): Domain {
  let parsed = domainCache.get(job.domainFile);
  if (parsed === undefined) domainCache.set(job.domainFile, (parsed = []));
  for (const p of parsed) if (p.text === job.domainText) return p.domain;
  const domain = parseDomain(job.domainText, job.domainFile);
  parsed.push({ text: job.domainText, domain });
  return domain;
}

function cachedTemplates(job: ProblemJob, domain: Domain, genericFallback: boolean): NlTemplates | null {
  if (job.builtinTemplates !== null) {
    if (!builtinTemplates.has(job.builtinTemplates)) builtinTemplates.set(job.builtinTemplates, loadTemplates(job.builtinTemplates));
    return builtinTemplates.get(job.builtinTemplates)!;
  }
  if (job.templatesFile === null) return null;
  // A templates file is compiled against each domain it is used with (per-problem domain files).
  let byFile = fileTemplates.get(domain);
  if (byFile === undefined) fileTemplates.set(domain, (byFile = new Map()));
  const key = `${job.templatesFile}\0${genericFallback}`;
  if (byFile.has(key)) return byFile.get(key)!;
  // (the text read when the run started, whose sha256 config.json records; a file edited since is not read again)
  const t = typeof job.templatesText === "string" ? parseTemplatesText(job.templatesText, job.templatesFile, domain, { genericFallback }) : loadTemplatesFile(job.templatesFile, domain, { genericFallback });
  byFile.set(key, t);
  return t;
}

function sameState(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Text shared by the rows of one walk state, rendered and JSON-encoded once. */
interface SharedText {
  stateIndex: number;
  prefixOps: readonly number[];
  prompt: string;
  /** The prefix steps' text; null when no row object is made (their JSON is rendered directly). */
  prefix: string[] | null;
  /**
   * What follows a row's id up to its candidate step: `,<problem fields>"prompt":<json>,
   * "completions":[` and the JSON strings of the prefix steps, each followed by a comma.
   */
  afterId: string;
  /** From the end of the completions to the candidate's label: `],"labels":[1.0,1.0,`. */
  labelsHead: string;
  /** From the critique to the candidate's name: `,"meta":{"state_index":..,"prefix":[..],"action":`. */
  metaHead: string;
}

/** A number or null as JSON.stringify writes it. */
const jsonNum = (x: number | null): string => (x === null || !Number.isFinite(x) ? "null" : String(x));

/** Per job, the parts of a native line that depend on a few values only (built once each). */
interface LineParts {
  /** By category: `<reward>],"category":"<category>","critique":`. */
  category: Map<string, { reward: number; text: string }>;
  /** `,"plan_length":<n>,"seed":<seed>}}` for the last plan length asked. */
  tailOf: number;
  tail: string;
}

function categoryPart(parts: LineParts, step: LabeledStep): string {
  const hit = parts.category.get(step.category);
  if (hit !== undefined && hit.reward === step.reward) return hit.text;
  const text = `${formatFloat(step.reward)}],"category":${JSON.stringify(step.category)},"critique":`;
  parts.category.set(step.category, { reward: step.reward, text });
  return text;
}

/**
 * The native JSON line of a row, byte-identical to `formatRow(row, "native")` (tested), built
 * from parts: the problem's and the state's JSON once, only what differs per row encoded per row
 * (serialising the long prompt once per row was the largest cost of a worker). Fewer, longer
 * parts: each joined part is a string the row allocates.
 */
function nativeLine(
  rowId: string,
  shared: SharedText,
  parts: LineParts,
  step: LabeledStep,
  candidateJson: string,
  critique: string,
  revisits: number,
  seed: number,
): string {
  const J = JSON.stringify;
  const ev = step.evidence;
  if (parts.tailOf !== step.planLength) {
    parts.tailOf = step.planLength;
    parts.tail = `,"plan_length":${step.planLength},"seed":${seed}}}`;
  }
  return (
    '{"id":' + J(rowId) + shared.afterId + candidateJson + shared.labelsHead + categoryPart(parts, step) + J(critique) + shared.metaHead +
    J(step.candidate.name) +
    `,"h_before":${jsonNum(ev.hBefore)},"h_after":${jsonNum(ev.hAfter)},"cost":${jsonNum(ev.cost)},"extra_cost":${jsonNum(ev.extraCost)},` +
    `"failed_preconditions":${ev.failedPreconditions.length === 0 ? "[]" : J(ev.failedPreconditions)},"revisits":${revisits},` +
    `"backtrack_to":${jsonNum(ev.backtrackTo)},"dead_end_proof":${ev.deadEnd === null ? "null" : J(ev.deadEnd.kind)}` +
    parts.tail
  );
}

function sameOps(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Tokens `row` takes in the trainer of `format` (src/dataset/length.ts). OpenRLHF input is
 * counted whole, after its placeholder check; the stepwise formats as TRL's PRMTrainer
 * tokenizes them.
 */
function rowTokens(format: Format, row: NativeRow, line: string, counter: TokenCounter): number {
  if (format === "openrlhf") {
    const input = (JSON.parse(line) as { input: string }).input;
    const bad = placeholderProblem(counter, input, row.completions.length);
    if (bad !== null) throw new UserError(`--tokenizer: row ${row.id}: ${bad}; use --format trl`);
    return counter.count(input);
  }
  // the released PRMs tokenize the text whole (and Llama's tokenizer adds BOS)
  if (format === "paper-prm") return 1 + counter.count((JSON.parse(line) as { text: string }).text);
  return stepwiseTokens(counter, trainerPrompt(row.prompt), row.completions.map(oneLine));
}

/**
 * Label one problem and render its rows. Never throws for a problem that hits a limit: the time
 * limit covers parsing, grounding and labelling; grounding also stops at the size caps.
 */
export function runJob(job: ProblemJob, jobConfig: JobConfig): JobResult {
  const result: JobResult = {
    index: job.index,
    domainName: job.domainName,
    problemId: job.problemId,
    split: job.split,
    lines: [],
    rows: jobConfig.keepRows ? [] : null,
    counts: emptyCounts(),
    planLength: 0,
    states: 0,
    skipped: null,
    dropped: 0,
    ms: { grounding: 0, labelling: 0, translation: 0 },
  };
  let t0 = performance.now();
  const deadline = t0 + jobConfig.timeMs;
  const domain = cachedDomain(job);
  const problemText = problemTextOf(job);
  if (job.problemText === null) result.problemText = problemText;
  const problem = parseProblem(problemText, job.problemFile, domain);
  const templates = cachedTemplates(job, domain, jobConfig.genericFallback);
  let task: GroundTask;
  try {
    task = ground(domain, problem, { maxOps: jobConfig.maxOps, maxFacts: jobConfig.maxFacts, deadline });
  } catch (e) {
    if (!(e instanceof GroundingLimit)) throw e;
    result.skipped = e.message;
    result.ms.grounding = performance.now() - t0;
    return result;
  }
  let t1 = performance.now();
  result.ms.grounding = t1 - t0;
  // labelling gets what is left of the problem's time
  const config: JobConfig = { ...jobConfig, timeMs: Math.max(1, deadline - t1) };
  // Pairs, trajectories and processbench are not one row per labelled step.
  if (isEvalFormat(config.format)) return runEvalJob(job, config, task, templates, result, problemText);

  let steps: LabeledStep[];
  try {
    const outcome = labelProblemSteps(task, {
      problemId: problemKey(job.domainName, job.problemId),
      seed: config.seed,
      samplesPerState: config.samplesPerState,
      randomOptimal: config.randomOptimal,
      balance: config.balance,
      nonExecutable: config.nonExecutable,
      limits: { timeMs: config.timeMs, maxExpansions: config.maxExpansions, maxStates: config.maxStates },
      partial: !config.wholeProblems,
    });
    steps = outcome.steps;
    if (outcome.cutReason !== null) {
      result.cut = { states_labelled: outcome.statesLabelled, states_cut: outcome.statesCut, reason: outcome.cutReason };
    }
  } catch (e) {
    if (e instanceof ProblemSkipped) {
      result.skipped = e.message;
      result.ms.labelling = performance.now() - t1;
      return result;
    }
    throw e;
  }
  t0 = performance.now();
  result.ms.labelling = t0 - t1;

  const renderer = createRenderer(task, templates);
  const counter = config.maxLength == null ? null : tokenCounter(config.tokenizer ?? null);
  const sharedText = new Map<string, SharedText>();
  const lineParts: LineParts = { category: new Map(), tailOf: -1, tail: "" };
  // The renderer returns one string per paraphrase of the prompt: its JSON is made once. Found
  // by identity in a short list (a Map would hash the long string of each new paraphrase).
  const prompts: string[] = [];
  const promptJsons: string[] = [];
  const promptJsonOf = (p: string): string => {
    for (let i = 0; i < prompts.length; i++) if (prompts[i] === p) return promptJsons[i]!;
    prompts.push(p);
    promptJsons.push(J(p));
    return promptJsons[promptJsons.length - 1]!;
  };
  let shared: SharedText | null = null;
  const J = JSON.stringify;
  const problemJson = `"domain":${J(job.domainName)},"problem":${J(job.problemId)},"split":${J(job.split)},`;
  // The row object is needed only to return it, for another format, or to count its tokens.
  const needRow = result.rows !== null || config.format !== "native" || counter !== null;
  // States of the walk, to report whether a candidate revisits one (meta.revisits).
  const walkStates: Uint32Array[] = [task.init];
  const walkOps: number[] = [];
  for (const step of steps) {
    while (walkOps.length < step.prefixOps.length) {
      const op = step.prefixOps[walkOps.length]!;
      walkOps.push(op);
      walkStates.push(applyOp(task, walkStates[walkStates.length - 1]!, op));
    }
    result.planLength = step.planLength;
    const rowId = stepRowId(job.domainName, job.problemId, step);
    // The prompt and the prefix are shared by the candidates of one state (consecutive steps):
    // render them once per state (its own PRNG stream), the candidate step and the critique once per row.
    if (shared === null || shared.stateIndex !== step.stateIndex || !sameOps(shared.prefixOps, step.prefixOps)) {
      const stateKey = `${step.stateIndex}/${step.prefixOps.join(",")}`;
      shared = sharedText.get(stateKey) ?? null;
      if (shared === null) {
        const sp = new Prng(config.seed, `${job.domainName}/${job.problemId}/t${step.stateIndex}/${step.prefixOps.length}`);
        const prompt = renderer.prompt(sp);
        // States are passed so that conditional effects are stated as they apply there.
        // Without a row object the steps go straight to JSON (the renderer keeps it per paraphrase).
        const prefix = needRow ? step.prefixOps.map((op, k) => renderer.step(k + 1, operatorCandidate(task, op), sp, walkStates[k])) : null;
        const prefixJson = prefix !== null ? prefix.map((t) => J(t)) : step.prefixOps.map((op, k) => renderer.stepJson(k + 1, operatorCandidate(task, op), sp, walkStates[k]));
        shared = {
          stateIndex: step.stateIndex,
          prefixOps: step.prefixOps,
          prompt,
          prefix,
          afterId: `,${problemJson}"prompt":${promptJsonOf(prompt)},"completions":[${prefixJson.map((j) => j + ",").join("")}`,
          labelsHead: `],"labels":[${"1.0,".repeat(step.prefixOps.length)}`,
          metaHead: `,"meta":{"state_index":${step.stateIndex},"prefix":${J(step.prefix)},"action":`,
        };
        sharedText.set(stateKey, shared);
      }
    }
    const prng = new Prng(config.seed, rowId);
    const candidateText = needRow ? renderer.step(step.prefixOps.length + 1, step.candidate, prng, walkStates[step.stateIndex]) : null;
    const candidateJson =
      candidateText !== null ? J(candidateText) : renderer.stepJson(step.prefixOps.length + 1, step.candidate, prng, walkStates[step.stateIndex]);
    let revisits = 0;
    const c = step.candidate;
    if (c.op >= 0 && step.category !== "non-executable") {
      const s = walkStates[step.stateIndex]!;
      if (isApplicable(task, s, c.op)) {
        const next = applyOp(task, s, c.op);
        for (let j = 0; j <= step.stateIndex; j++) if (sameState(walkStates[j]!, next)) revisits++;
      }
    }
    const critique = renderer.critique(step, prng);
    let row: NativeRow | null = null;
    if (needRow) {
      const ev = step.evidence;
      row = {
        id: rowId,
        domain: job.domainName,
        problem: job.problemId,
        split: job.split,
        prompt: shared.prompt,
        completions: [...shared.prefix!, candidateText!],
        labels: [...step.prefixOps.map(() => 1.0), step.reward],
        category: step.category,
        critique,
        meta: {
          state_index: step.stateIndex,
          prefix: step.prefix,
          action: c.name,
          h_before: ev.hBefore,
          h_after: ev.hAfter,
          cost: ev.cost,
          extra_cost: ev.extraCost,
          failed_preconditions: ev.failedPreconditions,
          revisits,
          backtrack_to: ev.backtrackTo,
          dead_end_proof: ev.deadEnd === null ? null : ev.deadEnd.kind,
          plan_length: step.planLength,
          seed: config.seed,
        },
      };
    }
    const line =
      config.format === "native"
        ? nativeLine(rowId, shared, lineParts, step, candidateJson, critique, revisits, config.seed)
        : formatRow(row!, config.format, { threshold: config.threshold });
    if (counter !== null && rowTokens(config.format, row!, line, counter) > config.maxLength!) {
      // cut to maxLength, the row would lose the candidate's label (the last one): drop it
      result.dropped++;
      continue;
    }
    result.counts[step.category]++;
    result.lines.push(line);
    if (result.rows) result.rows.push(row!);
  }
  result.states = walkStates.length;
  const ps = renderer.promptSummary();
  if (ps.rulesOmitted + ps.fixedOmitted + ps.costOmitted + ps.arithmetic.length > 0) {
    result.text = { rules_omitted: ps.rulesOmitted, fixed_omitted: ps.fixedOmitted, cost_omitted: ps.costOmitted, arithmetic: ps.arithmetic.length };
  }
  t1 = performance.now();
  result.ms.translation = t1 - t0;
  return result;
}
