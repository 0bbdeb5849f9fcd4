/**
 * The plain data that flows between the stages of a run: a problem job and its result (they
 * cross worker threads), category counts, and the per-problem and per-rank records that the
 * completion markers, the manifest and stats.csv are made of. Types only (and `emptyCounts`),
 * so that the modules that produce and read them import none of each other.
 */
import type { Category } from "../label/types.js";
import type { Format } from "./formats.js";
import type { ProblemSource } from "./problems.js";
import { CATEGORIES, type NativeRow, type Split } from "./row.js";
import type { ShardInfo } from "./shard.js";
import type { VerifierStyle } from "../products/verifier.js";
import type { FeedbackStyle } from "../products/feedback.js";
import type { RlStyle } from "../products/rl.js";
import type { WorkCounts } from "../search/work.js";

/** One problem to label: everything a worker needs, as plain data (it crosses threads). */
export interface ProblemJob extends ProblemSource {
  /** Position of the problem in the run's ordered problem list. */
  index: number;
  split: Split;
}

/** Settings shared by all jobs of a run. */
export interface JobConfig {
  seed: number;
  samplesPerState: number;
  format: Format;
  threshold: number;
  randomOptimal: boolean;
  balance: boolean;
  nonExecutable: "near-miss" | "any";
  /** Per problem: parsing, grounding and labelling together. */
  timeMs: number;
  maxExpansions: number;
  maxStates: number;
  /** pairs, trajectories, verifier: TRL's conversational layout (messages) instead of strings. */
  chat: boolean;
  /** verifier: the target's layout (plain text, the default, or Agent-RRM's tags); feedback: turns (default) or dialogue. */
  style?: VerifierStyle | FeedbackStyle | RlStyle;
  /** Drop rows longer than this many tokens in their trainer (null: keep all). */
  maxLength: number | null;
  /** The tokenizer.json that counts tokens for maxLength (null: the estimate of src/dataset/length.ts). */
  tokenizer: string | null;
  /** Grounding caps: a problem over one is skipped. */
  maxOps: number;
  maxFacts: number;
  /** Generic text for actions and predicates a templates file leaves out (else an error). */
  genericFallback: boolean;
  /**
   * Skip a problem that hits a limit mid-walk instead of keeping its whole labelled states
   * (`--whole-problems`; step formats keep them by default, evaluation formats always skip).
   */
  wholeProblems: boolean;
  /** Also return the row objects (library `generate()`); the CLI needs only the lines. */
  keepRows: boolean;
}

export type CategoryCounts = Record<Category, number>;

export interface JobResult {
  index: number;
  domainName: string;
  problemId: string;
  split: Split;
  /** The rows' lines (JSON, no newline), in order. */
  lines: string[];
  rows: NativeRow[] | null;
  counts: CategoryCounts;
  planLength: number;
  states: number;
  skipped: string | null;
  /** States of the walk a limit left unlabelled (the rows of the others are kept), and why. */
  cut?: StatesCut;
  /** Rows dropped for being longer than `maxLength` tokens. */
  dropped: number;
  /** What the problem's prompt summed up to stay within its budget (absent: nothing). */
  text?: TextSummary;
  /** Milliseconds per stage. */
  ms: { grounding: number; labelling: number; translation: number };
  /** The search work the job did (deterministic counts; absent where it never ran). */
  work?: WorkCounts;
  /** The problem's PDDL where the job came without it (read from its file here): for the run's copy of it. */
  problemText?: string;
}

/**
 * A job's result as it reaches the writer: its lines already encoded, in the worker, as the bytes
 * its shard gets (`encodeLines`), which are moved to the main thread rather than copied.
 */
export interface EncodedJobResult extends Omit<JobResult, "lines"> {
  /** The lines, each ended by a newline, UTF-8; a buffer of its own, never Node's shared pool. */
  bytes: Uint8Array;
  /** Number of lines in `bytes`. */
  lineCount: number;
}

export function emptyCounts(): CategoryCounts {
  const c = {} as CategoryCounts;
  for (const k of CATEGORIES) c[k] = 0;
  return c;
}

/**
 * What a prompt states in summary instead of one by one (DESIGN.md §14): rules of actions not
 * described, fixed facts and cost values not listed (past their budgets), and relations stated
 * as the arithmetic they are proven to be.
 */
export interface TextSummary {
  rules_omitted: number;
  fixed_omitted: number;
  cost_omitted: number;
  arithmetic: number;
}

/** A problem labelled in part: whole states up to a limit (every row exact), the rest cut. */
export interface StatesCut {
  states_labelled: number;
  states_cut: number;
  reason: string;
}

/** Per-problem record kept in the rank's completion marker and the manifest. */
export interface ProblemRecord {
  domain: string;
  problem: string;
  split: Split;
  rows: number;
  plan_length: number;
  skipped: string | null;
  counts: CategoryCounts;
  /** Rows dropped for being longer than `--max-length` tokens (absent: none). */
  dropped?: number;
  /** What the prompt summed up (absent: nothing). */
  text?: TextSummary;
  /** Labelled in part (absent: whole or skipped). */
  cut?: StatesCut;
}

/** The content of `completions/{rank}`: everything `merge` needs from a finished rank. */
export interface RankRecord {
  rank: number;
  world: number;
  config_hash: string;
  shards: ShardInfo[];
  problems: ProblemRecord[];
  counts: CategoryCounts;
}

/** manifest.json of a complete dataset (DESIGN.md §9). */
export interface Manifest {
  generator: string;
  version: string;
  config_hash: string;
  config: Record<string, unknown>;
  seed: number;
  world: number;
  rows: number;
  counts: {
    by_split: Record<string, number>;
    by_domain: Record<string, number>;
    by_category: CategoryCounts;
    by_domain_split_category: Record<string, Record<string, CategoryCounts>>;
  };
  /** `labelled` counts the problems with rows; `partial` those of them a limit cut short. */
  problems: {
    total: number;
    labelled: number;
    partial: ({ domain: string; problem: string } & StatesCut)[];
    skipped: { domain: string; problem: string; reason: string }[];
  };
  /** Rows dropped for being longer than `--max-length` tokens, in total and per domain. */
  dropped: { rows: number; by_domain: Record<string, number>; max_length: number | null; counted_with: string | null };
  shards: ShardInfo[];
  /** The shortcut audit's headline (`pddl2prm audit`), when the writer was given an auditor. */
  audit?: AuditHeadline;
  /** The files of `--layout` other than native (acpbench: ACPBench's files), when asked for. */
  layout?: LayoutRecord;
  /** What prompts summed up to stay within their budget, when some did (DESIGN.md §14). */
  text?: {
    rule: string;
    problems: number;
    rules_omitted: number;
    fixed_omitted: number;
    cost_omitted: number;
    arithmetic_relations: number;
  };
}

/** The headline of `pddl2prm audit` (src/audit), as the manifest and the dataset card show it. */
export interface AuditHeadline {
  pass: boolean;
  /** One line: pass or fail, and the main figures. */
  summary: string;
  /** The checks that failed, one line each. */
  failed: string[];
}

/**
 * Runs the shortcut audit on a finished dataset folder. The dataset stage cannot import the
 * audit (it is a product built on datasets), so the CLI hands it in.
 */
/** What the manifest says of `--layout`'s files (layout.ts). */
export interface LayoutRecord {
  name: "native" | "acpbench";
  /** Relative path -> records. */
  files: Record<string, number>;
  /** gen questions left out (no exact or complete gold in ACPBench's shape), by reason. */
  skipped: Record<string, number>;
}

export type DatasetAuditor = (out: string) => Promise<AuditHeadline>;
