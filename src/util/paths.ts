import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | null = null;

/**
 * The package root (the folder of pddl2prm's package.json), found from this file's location so
 * that it works from src/ (tests), dist/src/ (CLI) and an installed node_modules copy alike.
 */
export function packageRoot(): string {
  if (root !== null) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = join(dir, "package.json");
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, "utf8")) as { name?: string }).name === "pddl2prm") return (root = dir);
      } catch {
        // not our package.json; keep walking up
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("pddl2prm: cannot locate the package root");
    dir = up;
  }
}

/** The package version from package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}
