/** The five step categories of DESIGN.md §6 and their rewards. */
export type Category = "non-executable" | "dead-end" | "backtracking" | "suboptimal" | "optimal";

export const REWARD: Readonly<Record<Category, number>> = {
  "non-executable": 0.0,
  "dead-end": 0.25,
  backtracking: 0.5,
  suboptimal: 0.75,
  optimal: 1.0,
};

/** A candidate action: an action schema of the domain applied to objects (type-correct). */
export interface Candidate {
  /** Index into task.domain.actions. */
  schema: number;
  /** Object ids (into task.objects), one per schema parameter. */
  args: number[];
  /** PDDL text, e.g. "(pick-up a)". */
  name: string;
  /** Ground operator id applicable-or-not from the task's tables, or -1 if grounding pruned it. */
  op: number;
}

export type DeadEndProof =
  | { kind: "relaxed-unreachable" }
  | { kind: "exhaustive"; states: number };

/** Why a candidate got its label (DESIGN.md §6 evidence). */
export interface Evidence {
  /** Ground literals of the precondition that are false in s, PDDL syntax ("(clear b)", "(not (holding a))"). */
  failedPreconditions: string[];
  /** h*(s); null only if not computed. */
  hBefore: number | null;
  /** h*(s'); null for non-executable; Infinity is reported as null with deadEnd set. */
  hAfter: number | null;
  /** c(a) + h*(s') - h*(s); null for non-executable and dead ends. */
  extraCost: number | null;
  /** Cost of the action (null for non-executable). */
  cost: number | null;
  /** Backtracking: walk index j of the first visited state that optimal plans from s' return to. */
  backtrackTo: number | null;
  /** Dead-end: how h*(s') = Infinity was proved. */
  deadEnd: DeadEndProof | null;
}

/** One labelled candidate at one state of the walk. */
export interface LabeledStep {
  /** Problem id (file name without .pddl). */
  problem: string;
  /** Index t of the state s_t in the walk (0 = initial state). */
  stateIndex: number;
  /** The actions of the walk so far, PDDL text (one array shared by the steps of a state: read only). */
  prefix: string[];
  /** Operator ids of the prefix (shared like `prefix`). */
  prefixOps: number[];
  /**
   * The states of the walk, s_0..s_t at least (read only), when the caller has them (a judged
   * plan): the critic reads the states it needs off them instead of replaying `prefixOps`.
   */
  walkStates?: readonly Uint32Array[];
  candidate: Candidate;
  category: Category;
  reward: number;
  evidence: Evidence;
  /** Length of the optimal plan the walk follows. */
  planLength: number;
  /** Index of the candidate among those drawn at this state. */
  candidateIndex: number;
  /** Absent (or 0) on the main optimal walk; 1 on a recovery branch (labelProblem `recovery`). */
  branch?: number;
}
