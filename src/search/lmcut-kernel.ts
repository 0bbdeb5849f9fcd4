import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { packageRoot } from "../util/paths.js";
import type { RelaxedTask } from "./relaxed.js";

/**
 * h^max and LM-Cut in WebAssembly (`src/search/wasm/lmcut.as.ts`, AssemblyScript built to
 * `dist/wasm/lmcut.wasm` by `npm run build`). The kernel is a port of the JavaScript
 * `LmCutHeuristic` and `AdaptiveQueue`: the same relaxation, queue and tie-breaking, hence the
 * same values (tests compare both on random tasks). It runs 1.6-2.9x faster per evaluation
 * than the JIT-compiled JavaScript and, compiled eagerly (`compileOptimized`), needs no warm-up,
 * which is most of a short search.
 */

// the WebAssembly API as used here (tsconfig's lib has no DOM, where its types live)
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
type WasmModule = object;
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: object };
};

/** Largest value the kernel uses for "unreachable"; sums of costs must stay below it in i32. */
const KERNEL_INF = 0x3fffffff;

interface KernelExports {
  memory: WasmMemory;
  alloc(bytes: number): number;
  init(...args: number[]): number;
  lmcut(): number;
  hmax(): number;
}

let wasmModule: WasmModule | null | undefined;

/** The compiled kernel module, or null where the build has not made it (then JavaScript runs). */
function kernelModule(): WasmModule | null {
  if (wasmModule !== undefined) return wasmModule;
  if (process.env.PDDL2PRM_NO_WASM === "1") return (wasmModule = null);
  const file = join(packageRoot(), "dist", "wasm", "lmcut.wasm");
  wasmModule = existsSync(file) ? compileOptimized(readFileSync(file)) : null;
  return wasmModule;
}

/** V8's WebAssembly flags this module turns off for its own compile, and their defaults. */
const EAGER_FLAGS = ["liftoff", "wasm-lazy-compilation"] as const;

/**
 * Compile with V8's optimizing compiler, every function at once (about 10 ms for this module).
 * By default V8 compiles each function on its first call with its baseline compiler, which runs
 * 2-4x slower, and tiers up hot functions later: single calls of 2-4 ms, and most of a search
 * of a few hundred states spent in baseline code. The flags are V8-wide, so they are set for
 * this compile only and then put back (to the defaults, unless node was started with them).
 */
function compileOptimized(bytes: Uint8Array): WasmModule {
  const own = EAGER_FLAGS.filter((f) => !process.execArgv.some((a) => a === `--${f}` || a === `--no-${f}`));
  for (const f of own) setFlagsFromString(`--no-${f}`);
  try {
    return new WebAssembly.Module(bytes);
  } finally {
    for (const f of own) setFlagsFromString(`--${f}`);
  }
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
    const inst = new WebAssembly.Instance(module, {
      env: {
        abort: () => {
          throw new Error("lmcut kernel: abort (internal error)");
        },
      },
    });
    const x = (this.x = inst.exports as unknown as KernelExports);
    let maxBit = 0;
    for (let i = 0; i < rt.factTest.length; i++) if (rt.factTest[i]! > maxBit) maxBit = rt.factTest[i]!;
    this.words = (maxBit >>> 5) + 1;
    const put = (a: Int32Array): number => {
      const p = x.alloc(Math.max(a.length, 1) * 4);
      new Int32Array(x.memory.buffer, p, a.length).set(a);
      return p;
    };
    const arrays = [rt.preStart, rt.pre, rt.effStart, rt.eff, rt.cost, rt.preOfStart, rt.preOf, rt.addedByStart, rt.addedBy, rt.factOrder, rt.factTest, Int32Array.from(rt.factNeg)];
    const ptrs = arrays.map(put);
    this.statePtr = x.init(rt.numFacts, rt.numOps, rt.trueFact, rt.goalFact, rt.factOrder.length, this.words, ...ptrs);
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
