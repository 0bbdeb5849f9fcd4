import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { packageRoot } from "../util/paths.js";

/**
 * Loading of the search's WebAssembly kernels (`src/search/wasm/*.as.ts`, AssemblyScript built
 * to `dist/wasm/*.wasm` by `npm run build`). Where a file is missing, or `PDDL2PRM_NO_WASM=1`,
 * callers run their JavaScript versions, which give the same values.
 */

// the WebAssembly API as used here (tsconfig's lib has no DOM, where its types live)
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export type WasmModule = object;
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: object };
};

const modules = new Map<string, WasmModule | null>();

/** The compiled module `dist/wasm/<name>.wasm` (once per thread), or null where it is not built or disabled. */
export function wasmModule(name: string): WasmModule | null {
  let m = modules.get(name);
  if (m !== undefined) return m;
  const file = join(packageRoot(), "dist", "wasm", `${name}.wasm`);
  m = process.env.PDDL2PRM_NO_WASM !== "1" && existsSync(file) ? compileOptimized(readFileSync(file)) : null;
  modules.set(name, m);
  return m;
}

/** A new instance of `module` (its own linear memory) with these host functions besides `abort`. */
export function instantiate(module: WasmModule, env: Record<string, (...args: number[]) => number> = {}): object {
  const abort = (): never => {
    throw new Error("WebAssembly kernel: abort (internal error)");
  };
  return new WebAssembly.Instance(module, { env: { abort, ...env } }).exports;
}

/** V8's WebAssembly flags turned off for our compiles. */
const EAGER_FLAGS = ["liftoff", "wasm-lazy-compilation"] as const;

/**
 * Compile with V8's optimizing compiler, every function at once (about 10 ms per kernel).
 * By default V8 compiles each function on its first call with its baseline compiler, which runs
 * 2-4x slower, and tiers up hot functions later: single calls of 2-4 ms, and most of a search
 * of a few hundred states spent in baseline code. The flags are V8-wide, so they are set for
 * this compile only and then put back (to the defaults, unless node was started with them).
 * Threads compiling at the same moment may see them put back early: their module then takes
 * V8's default path, slower at first, with the same results.
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
