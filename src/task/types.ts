import type { Domain, Problem } from "../pddl/ast.js";

/**
 * A ground STRIPS task with conditional effects, negative preconditions and axioms.
 *
 * Facts and operators are numbered 0..n-1. Variable-length lists are stored in CSR form:
 * the items of entry i are `xs[xsStart[i] .. xsStart[i+1])`. A state is a packed bitset
 * (`Uint32Array` of `words` words, fact f is bit `f & 31` of word `f >>> 5`).
 *
 * Static facts (true in every reachable state) are folded away during grounding: they are
 * not facts of the task. Atoms that are not facts are false in every reachable state.
 */
export interface GroundTask {
  domain: Domain;
  problem: Problem;

  /** All objects (problem objects and domain constants), sorted by name; ids index this array. */
  objects: string[];
  /** Types of each object, including all supertypes and "object". */
  objectTypes: string[][];

  /** Number of facts (= bits per state). */
  numFacts: number;
  /** Uint32 words per packed state: ceil(numFacts / 32), at least 1. */
  words: number;
  /** Printable name of each fact, e.g. "(on a b)". */
  factNames: string[];
  /** Predicate name of each fact. */
  factPredicate: string[];
  /** Object ids of each fact's arguments (CSR). */
  factArgStart: Int32Array;
  factArgs: Int32Array;
  /** 1 for facts set by axioms (derived predicates), else 0. */
  factDerived: Uint8Array;

  /** Number of operators. */
  numOps: number;
  /** Printable name, e.g. "(pick-up a)". Variants of one action (from split disjunctions) share a name. */
  opNames: string[];
  /** Index into `domain.actions`. */
  opSchema: Int32Array;
  /** Object ids of each operator's action arguments (CSR). */
  opArgStart: Int32Array;
  opArgs: Int32Array;
  /** Integer cost (1 without :action-costs). */
  opCost: Int32Array;
  /** Positive preconditions (fact ids, CSR). */
  preStart: Int32Array;
  pre: Int32Array;
  /** Negative preconditions: facts that must be false (CSR). */
  negPreStart: Int32Array;
  negPre: Int32Array;
  /** Unconditional add and delete effects (CSR). Add wins over delete of the same fact. */
  addStart: Int32Array;
  add: Int32Array;
  delStart: Int32Array;
  del: Int32Array;

  /**
   * Conditional effects. Operator o owns effects `ceStart[o] .. ceStart[o+1]`; effect e has
   * positive conditions `ceCond[ceCondStart[e] .. ceCondStart[e+1])`, negative conditions
   * `ceNegCond[...]`, and sets fact `ceFact[e]` to true (`ceIsAdd[e] = 1`) or false (0).
   * Conditions are evaluated in the state before the operator is applied.
   */
  ceStart: Int32Array;
  ceCondStart: Int32Array;
  ceCond: Int32Array;
  ceNegCondStart: Int32Array;
  ceNegCond: Int32Array;
  ceFact: Int32Array;
  ceIsAdd: Uint8Array;

  /**
   * Axioms for derived predicates: axiom x derives fact `axHead[x]` when all of
   * `axBody[...]` are true and all of `axNegBody[...]` are false. `axLayer[x]` is the stratum;
   * axioms are evaluated layer by layer, each to a fixpoint, after every transition and in the
   * initial state. Derived facts are false unless derived.
   */
  numAxioms: number;
  axHead: Int32Array;
  axLayer: Int32Array;
  axBodyStart: Int32Array;
  axBody: Int32Array;
  axNegBodyStart: Int32Array;
  axNegBody: Int32Array;

  /** The initial state (axioms already evaluated). */
  init: Uint32Array;
  /** Goal: facts that must be true / false. Complex goals are compiled into a derived fact. */
  goalPos: Int32Array;
  goalNeg: Int32Array;

  /** True when the task had :action-costs with a total-cost metric. */
  hasCosts: boolean;
}
