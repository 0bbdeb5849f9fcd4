/**
 * The pipeline is one-way (docs/architecture.md): a folder of src/ imports only from the folders
 * to its left. Reads every relative import (static, `export ... from`, dynamic) of src/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, normalize, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname, "..", "src");

/** The stages left to right; src/generators feeds in from the side (it needs only pddl). */
const LAYERS = ["util", "pddl", "task", "search", "label", "nl", "generators", "products", "reasoning", "dataset", "audit", "cli"];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** "src/<folder>/..." of a file, or null for src/index.ts (the public API, last of all). */
const folderOf = (file: string): string | null => {
  const parts = relative(SRC, file).split(/[\\/]/);
  return parts.length > 1 ? parts[0]! : null;
};

/** Imports of `from` that go right of its folder. */
function wrongWay(from: string, text: string): string[] {
  const me = folderOf(from);
  if (me === null) return [];
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\(\s*)"(\.{1,2}\/[^"]+)"/g)) {
    const target = folderOf(normalize(join(from, "..", m[1]!)));
    if (target !== null && target !== me && LAYERS.indexOf(target) > LAYERS.indexOf(me)) out.push(`${relative(SRC, from)} -> ${m[1]}`);
  }
  return out;
}

describe("one-way pipeline", () => {
  it("every folder of src/ is a known stage", () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !LAYERS.includes(f))).toEqual([]);
  });

  it("no module imports from a stage to its right", () => {
    expect(files(SRC).flatMap((f) => wrongWay(f, readFileSync(f, "utf8")))).toEqual([]);
  });

  it("the check sees an import going the wrong way", () => {
    expect(wrongWay(join(SRC, "products", "x.ts"), 'import { a } from "../dataset/row.js";')).toEqual(["products/x.ts -> ../dataset/row.js"]);
    expect(wrongWay(join(SRC, "dataset", "x.ts"), 'const m = await import("../audit/index.js");')).toHaveLength(1);
    expect(wrongWay(join(SRC, "dataset", "x.ts"), 'export { b } from "../products/layout.js";')).toEqual([]);
  });
});
