/**
 * The one place where search touches the task module's state machinery (registry, successor
 * generator, transition function), so the search code stays independent of their details.
 */
import type { GroundTask } from "../task/types.js";
import { StateRegistry } from "../task/index.js";
import { successorGeneratorOf, type SuccessorGenerator } from "../task/index.js";
import { isGoal } from "../task/index.js";

/** States of one task: interning, successor generation and goal test. */
export class StateSpace {
  readonly task: GroundTask;
  readonly registry: StateRegistry;
  private readonly succ: SuccessorGenerator;

  /** `capacity`: states held before the registry first grows. */
  constructor(task: GroundTask, succ?: SuccessorGenerator, capacity = 1024) {
    this.task = task;
    this.registry = new StateRegistry(task.words, capacity);
    this.succ = succ ?? successorGeneratorOf(task);
  }

  /** The shared successor generator (reuse it for further spaces of the same task). */
  get successorGenerator(): SuccessorGenerator {
    return this.succ;
  }

  /** Id of `state`, interning a copy if new. */
  intern(state: Uint32Array): number {
    return this.registry.intern(state);
  }

  /** Id of `state` or -1 when it was never interned. */
  lookup(state: Uint32Array): number {
    return this.registry.lookup(state);
  }

  /** The packed state with this id (do not modify). */
  get(id: number): Uint32Array {
    return this.registry.get(id);
  }

  /** Copy the state with this id into `out` (no view is made: loops over every state use this). */
  getInto(id: number, out: Uint32Array): Uint32Array {
    return this.registry.getInto(id, out);
  }

  get size(): number {
    return this.registry.size;
  }

  /** Applicable operator ids of `state`, written into `out` (its old contents replaced). */
  applicable(state: Uint32Array, out: number[]): void {
    this.succ.applicable(state, out);
  }

  /** `applicable` into a typed array with room for `task.numOps` ids; returns their number. */
  applicableInto(state: Uint32Array, out: Int32Array): number {
    return this.succ.applicableInto(state, out);
  }

  /** Successor of `state` by `op` written into `out`. */
  apply(state: Uint32Array, op: number, out: Uint32Array): Uint32Array {
    return this.succ.apply(state, op, out);
  }

  /**
   * Successor of `state` by `op` into `out`, projected onto `factMask` when one is given (the
   * goal-relevance projection of plain optimal search).
   */
  applyProjected(state: Uint32Array, op: number, out: Uint32Array, factMask: Uint32Array | undefined): Uint32Array {
    this.succ.apply(state, op, out);
    if (factMask !== undefined) for (let w = 0; w < out.length; w++) out[w]! &= factMask[w]!;
    return out;
  }

  isGoal(state: Uint32Array): boolean {
    return isGoal(this.task, state);
  }
}
