// Builds the WebAssembly kernels (src/search/wasm/*.as.ts -> dist/wasm/*.wasm) with AssemblyScript,
// skipping a kernel whose output is newer than every input: `npx pddl2prm` in a fresh clone runs
// the `prepare` build a second time (it installs the project into npx's cache), and recompiling
// unchanged kernels was 5 of that build's 13 s.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src", "search", "wasm");
const asc = join(root, "node_modules", "assemblyscript", "bin", "asc.js");
const KERNELS = ["lmcut", "search"];
const FLAGS = ["--optimizeLevel", "3", "--runtime", "stub", "--noAssert"];

// every kernel imports shared modules of the folder: any change there rebuilds all of them
const inputs = [
  ...readdirSync(src).map((f) => join(src, f)),
  join(root, "node_modules", "assemblyscript", "package.json"),
  fileURLToPath(import.meta.url),
];
const newestInput = Math.max(...inputs.map((f) => statSync(f).mtimeMs));

for (const k of KERNELS) {
  const out = join(root, "dist", "wasm", `${k}.wasm`);
  if (existsSync(out) && statSync(out).mtimeMs >= newestInput) continue;
  const r = spawnSync(process.execPath, [asc, join(src, `${k}.as.ts`), ...FLAGS, "--outFile", out], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
