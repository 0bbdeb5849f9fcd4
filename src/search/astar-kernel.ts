import type { GroundTask } from "../task/types.js";
import type { SuccessorGenerator } from "../task/index.js";
import type { KernelHeuristicSpec } from "./heuristics.js";
import { loadRelaxedTask, putArray, type KernelExports } from "./lmcut-kernel.js";
import { searchDeadline, type SearchLimits, type SearchResult } from "./types.js";
import { instantiate, wasmModule } from "./wasm-module.js";
import { countSearch } from "./work.js";

/**
 * A* in WebAssembly (`src/search/wasm/search.as.ts`, with the LM-Cut kernel in the same
 * instance) for solve: a port of `astarRun` with the same successor order, open-list order,
 * reopening and counts, hence the same expansions and plan (tests compare both). A search of a
 * few hundred states runs in JavaScript mostly before V8 has optimised it (2-4x slower than
 * warm); compiled code from the first state is what makes short searches as fast as long ones.
 */

interface SearchExports extends KernelExports {
  searchInit(...args: number[]): void;
  startBuffer(): number;
  search(maxExpanded: number, deadline: number, bound: number): number;
  searchInitEffects(...args: number[]): void;
  arenaPtr(): number;
  hPtr(): number;
  stat(i: number): number;
  planPtr(): number;
}

/** Largest value the kernels use for "unreachable". */
const KERNEL_INF = 0x3fffffff;
const STATUS = ["solved", "unsolvable", "limit"] as const;
const INTERNAL = 3;

/** What the kernel needs besides the task (`astarRun`'s options, the subset solve uses). */
export interface SearchKernelOptions {
  successorGenerator: SuccessorGenerator;
  /** Operators with mask 0 are never applied. */
  opMask?: Uint8Array;
  /** Project every state onto these facts (packed mask). */
  factMask?: Uint32Array;
  /** Successors in increasing order of this position per operator (ties by id); default: by id. */
  successorOrder?: Int32Array;
}

/**
 * True when the kernel is built and can run `task`'s transitions: no axioms (its transition
 * function is STRIPS with negative preconditions and conditional effects).
 */
export function searchKernelRuns(task: GroundTask): boolean {
  return task.axHead.length === 0 && wasmModule("search") !== null;
}

/** "No bound" for the kernel's i32 bound (above every sum `searchKernelFits` allows). */
const NO_BOUND = 0x7fffffff;

/** `searchKernelRuns`, and costs small enough for the kernel's 32-bit sums. */
export function searchKernelFits(task: GroundTask, spec: KernelHeuristicSpec): boolean {
  if (!searchKernelRuns(task)) return false;
  let maxCost = Math.max(spec.rt.maxCost, 1);
  for (let o = 0; o < task.numOps; o++) if (task.opCost[o]! > maxCost) maxCost = task.opCost[o]!;
  return (spec.rt.numOps + 1) * maxCost < KERNEL_INF && (task.numOps + 1) * maxCost < KERNEL_INF;
}

/**
 * A* searches of one task in its own kernel instance. Made before the search clock starts (the
 * task and relaxation copied into linear memory); each search starts afresh (its memory, grown
 * to the largest search so far, is reused).
 */
export class SearchKernel {
  private readonly x: SearchExports;
  private readonly spec: KernelHeuristicSpec;
  /** The facts states are projected onto (packed), or undefined: none. */
  readonly projection: Uint32Array | undefined;

  /** A kernel for `task`, or null where `searchKernelFits` says no. */
  static create(task: GroundTask, spec: KernelHeuristicSpec, options: SearchKernelOptions): SearchKernel | null {
    return searchKernelFits(task, spec) ? new SearchKernel(task, spec, options) : null;
  }

  private constructor(
    private readonly task: GroundTask,
    spec: KernelHeuristicSpec,
    options: SearchKernelOptions,
  ) {
    this.spec = spec;
    this.projection = options.factMask;
    const words = Math.max(1, task.words);
    const scratch = new Uint32Array(words);
    const x = (this.x = instantiate(wasmModule("search")!, {
      now: () => performance.now(),
      // a state the finite-domain map rejects: the heuristic's own evaluation
      fallback: (ptr: number, n: number) => {
        scratch.set(new Uint32Array(x.memory.buffer, ptr, n));
        const h = spec.fallback(scratch);
        return h === Infinity ? KERNEL_INF : h;
      },
    }) as unknown as SearchExports);
    const { statePtr, words: hWords } = loadRelaxedTask(x, spec.rt);
    const put = (a: Int32Array | Uint32Array | Uint8Array | undefined): number => (a === undefined ? 0 : putArray(x, a));
    const sg = options.successorGenerator;
    const map = spec.map;
    x.searchInit(
      words, task.numOps,
      put(task.preStart), put(task.pre), put(task.negPreStart), put(task.negPre),
      put(task.addStart), put(task.add), put(task.delStart), put(task.del), put(task.opCost),
      put(task.goalPos), task.goalPos.length, put(task.goalNeg), task.goalNeg.length,
      put(options.opMask), put(options.factMask), put(options.successorOrder),
      put(sg.keyStart), put(sg.keyOps), put(sg.unkeyed), sg.unkeyed.length,
      spec.kind === "lmcut" ? 1 : 2, statePtr, hWords,
      map === null ? -1 : map.noneProp.length, put(map?.atomStart), put(map?.atomFact), put(map?.atomProp), put(map?.noneProp),
    );
    if (task.ceFact.length > 0) {
      let maxPerOp = 0;
      for (let o = 0; o < task.numOps; o++) maxPerOp = Math.max(maxPerOp, task.ceStart[o + 1]! - task.ceStart[o]!);
      x.searchInitEffects(
        put(task.ceStart), put(task.ceCondStart), put(task.ceCond), put(task.ceNegCondStart), put(task.ceNegCond),
        put(task.ceFact), put(task.ceIsAdd), maxPerOp,
      );
    }
  }

  /**
   * A* from the task's initial state; the same result as `astar` with the same options, and how
   * many expanded states were reopened (as `astarRun`).
   */
  run(limits: SearchLimits = {}): SearchResult & { reopened: number } {
    return this.runFrom(this.task.init, limits);
  }

  /**
   * Every state the last search generated with its heuristic value (Infinity for a relaxed dead
   * end), in the kernel's projection (`projection`; the task's own states without one).
   */
  forEachState(visit: (state: Uint32Array, h: number) => void): void {
    const x = this.x;
    const words = Math.max(1, this.task.words);
    const n = x.stat(8);
    const mem = new Uint32Array(x.memory.buffer);
    const hv = new Int32Array(x.memory.buffer, x.hPtr(), n);
    const base = x.arenaPtr() >>> 2;
    const s = new Uint32Array(words);
    for (let id = 0; id < n; id++) {
      s.set(mem.subarray(base + id * words, base + (id + 1) * words));
      const h = hv[id]!;
      visit(s, h === -2 ? Infinity : h);
    }
  }

  /**
   * A* from `start` (a state of the task); with `bound`, only plans of cost <= bound are looked
   * for ("unsolvable" then means none exists). The plan's operators apply to `start` in the task
   * itself (the projection only drops facts no relevant operator reads).
   */
  runFrom(start: Uint32Array, limits: SearchLimits = {}, bound = Infinity): SearchResult & { reopened: number } {
    const t0 = performance.now();
    const x = this.x;
    new Uint32Array(x.memory.buffer, x.startBuffer(), Math.max(1, this.task.words)).set(start.subarray(0, Math.max(1, this.task.words)));
    const maxExp = limits.maxExpansions ?? Infinity;
    const deadline = searchDeadline(limits, t0);
    let code: number;
    try {
      code = x.search(maxExp, deadline, bound === Infinity ? NO_BOUND : Math.min(Math.max(Math.floor(bound), -1), NO_BOUND));
    } catch (e) {
      // a trap: the registry outgrew linear memory (4 GB); a resource limit like the others
      if (e instanceof Error && e.constructor.name === "RuntimeError") code = 2;
      else throw e;
    }
    if (code === INTERNAL) throw new Error("lmcut: empty or zero-cost cut (internal error)");
    const h0 = x.stat(3);
    const planLen = x.stat(5);
    const status = STATUS[code]!;
    countSearch(x.stat(0), x.stat(1), x.stat(2));
    return {
      status,
      cost: status === "solved" ? x.stat(4) : null,
      plan: status === "solved" ? Array.from(new Int32Array(x.memory.buffer, x.planPtr(), planLen)) : [],
      initialH: h0 < 0 ? null : h0,
      expanded: x.stat(0),
      generated: x.stat(1),
      evaluated: x.stat(2),
      searchMs: performance.now() - t0,
      reopened: x.stat(7),
    };
  }
}
