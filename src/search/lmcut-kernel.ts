import type { RelaxedTask } from "./relaxed.js";
import { instantiate, wasmModule, type WasmMemory, type WasmModule } from "./wasm-module.js";

/**
 * h^max and LM-Cut in WebAssembly (`src/search/wasm/lmcut.as.ts`, AssemblyScript built to
 * `dist/wasm/lmcut.wasm` by `npm run build`). The kernel is a port of the JavaScript
 * `LmCutHeuristic` and `AdaptiveQueue`: the same relaxation, queue and tie-breaking, hence the
 * same values (tests compare both on random tasks). It runs 1.6-2.9x faster per evaluation
 * than the JIT-compiled JavaScript and, compiled eagerly (`compileOptimized`), needs no warm-up,
 * which is most of a short search.
 */

/** Largest value the kernel uses for "unreachable"; sums of costs must stay below it in i32. */
const KERNEL_INF = 0x3fffffff;

/** What a kernel instance exports (the search kernel, `search.wasm`, exports these too). */
export interface KernelExports {
  memory: WasmMemory;
  alloc(bytes: number): number;
  init(...args: number[]): number;
  lmcut(): number;
  hmax(): number;
}

/** Copy `a` into the instance's memory; returns its address. */
export function putArray(x: KernelExports, a: Int32Array | Uint32Array | Uint8Array): number {
  const p = x.alloc(Math.max(a.byteLength, 4));
  new Uint8Array(x.memory.buffer, p, a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return p;
}

/**
 * Write relaxed task `rt` into a kernel instance: the address of its state buffer and the
 * buffer's length in words (enough for the largest fact the relaxation tests).
 */
export function loadRelaxedTask(x: KernelExports, rt: RelaxedTask): { statePtr: number; words: number } {
  let maxBit = 0;
  for (let i = 0; i < rt.factTest.length; i++) if (rt.factTest[i]! > maxBit) maxBit = rt.factTest[i]!;
  const words = (maxBit >>> 5) + 1;
  const arrays = [rt.preStart, rt.pre, rt.effStart, rt.eff, rt.cost, rt.preOfStart, rt.preOf, rt.addedByStart, rt.addedBy, rt.factOrder, rt.factTest, Int32Array.from(rt.factNeg)];
  const ptrs = arrays.map((a) => putArray(x, a));
  return { statePtr: x.init(rt.numFacts, rt.numOps, rt.trueFact, rt.goalFact, rt.factOrder.length, words, ...ptrs), words };
}

/** The compiled kernel module, or null where the build has not made it (then JavaScript runs). */
function kernelModule(): WasmModule | null {
  return wasmModule("lmcut");
}

/** True when the WebAssembly kernel is built and enabled (`PDDL2PRM_NO_WASM=1` turns it off). */
export function lmcutKernelAvailable(): boolean {
  return kernelModule() !== null;
}

/**
 * One kernel instance holds one relaxed task (its own linear memory). `evaluate`-style calls
 * copy the state's words in and run; values are exactly those of the JavaScript heuristics.
 */
export class LmCutKernel {
  private readonly x: KernelExports;
  private readonly statePtr: number;
  private readonly words: number;
  private buffer: ArrayBuffer | null = null;
  private view: Uint32Array | null = null;

  private constructor(module: WasmModule, rt: RelaxedTask) {
    this.x = instantiate(module) as unknown as KernelExports;
    ({ statePtr: this.statePtr, words: this.words } = loadRelaxedTask(this.x, rt));
  }

  /**
   * A kernel for `rt`, or null where it cannot run: not built, or costs so large that h^max
   * sums could overflow 32 bits (the JavaScript heuristics then run, with the same values).
   */
  static create(rt: RelaxedTask): LmCutKernel | null {
    const module = kernelModule();
    return module !== null && LmCutKernel.fits(rt) ? new LmCutKernel(module, rt) : null;
  }

  /** True when `create(rt)` makes a kernel. */
  static fits(rt: RelaxedTask): boolean {
    // any h^max value is a sum of at most numOps costs along a chain
    return kernelModule() !== null && (rt.numOps + 1) * Math.max(rt.maxCost, 1) < KERNEL_INF;
  }

  private load(state: Uint32Array): void {
    const buf = this.x.memory.buffer;
    // memory growth replaces the buffer (and detaches old views)
    if (buf !== this.buffer) {
      this.buffer = buf;
      this.view = new Uint32Array(buf, this.statePtr, this.words);
    }
    const v = this.view!;
    if (state.length >= this.words) v.set(state.length === this.words ? state : state.subarray(0, this.words));
    else {
      v.fill(0);
      v.set(state);
    }
  }

  /** LM-Cut value of `state` (Infinity for a relaxed dead end). */
  lmcut(state: Uint32Array): number {
    this.load(state);
    const h = this.x.lmcut();
    if (h === -1) throw new Error("lmcut: empty or zero-cost cut (internal error)");
    return h >= KERNEL_INF ? Infinity : h;
  }

  /** h^max value of `state` (Infinity for a relaxed dead end). */
  hmax(state: Uint32Array): number {
    this.load(state);
    const h = this.x.hmax();
    return h >= KERNEL_INF ? Infinity : h;
  }
}
