/**
 * `--layout`: extra files of a complete dataset written beside its shards by the merge
 * (`native`: none; `acpbench`: ACPBench's `acpbench/<task>/<split>.<bool|mcq|gen>.json`, made by
 * src/reasoning/acpbench.ts from the acp shards). Written and ledgered with the card, so the
 * ownership rules of the rest of the folder hold for them.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { UserError } from "../pddl/errors.js";
import { acpbenchLayout, type AcpRowLike } from "../reasoning/acpbench.js";
import type { LayoutRecord } from "./records.js";
import type { ShardInfo } from "./shard.js";

export const LAYOUTS = ["native", "acpbench"] as const;
export type Layout = (typeof LAYOUTS)[number];
export type { LayoutRecord };
/** The folder of the acpbench layout's files. */
export const ACPBENCH_DIR = "acpbench";

/** The layout a run's config asks for (absent: native). */
export function layoutOf(config: Record<string, unknown>): Layout {
  const l = config["layout"];
  return l === "acpbench" ? "acpbench" : "native";
}

function* shardRows(out: string, shards: readonly ShardInfo[]): Generator<AcpRowLike> {
  for (const s of shards) {
    if (s.path.endsWith(".parquet")) throw new UserError(`${join(out, s.path)}: --layout acpbench reads JSON Lines shards (not --parquet)`);
    const raw = readFileSync(join(out, s.path));
    const text = (s.path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
    for (const line of text.split("\n")) if (line.trim() !== "") yield JSON.parse(line) as AcpRowLike;
  }
}

/** The files of `layout` for the complete dataset `out` (relative path -> text) and its manifest record; null for native. */
export function layoutFiles(out: string, layout: Layout, shards: readonly ShardInfo[]): { texts: Map<string, string>; record: LayoutRecord } | null {
  if (layout === "native") return null;
  // shards in split order, then rank: the records of a file keep the rows' order
  const order = ["train", "validation", "test"];
  const sorted = [...shards].sort((a, b) => {
    const sa = order.findIndex((x) => a.path.startsWith(`data/${x}-`));
    const sb = order.findIndex((x) => b.path.startsWith(`data/${x}-`));
    return sa !== sb ? sa - sb : a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
  const pddlOf = (domain: string, problem: string): { domain: string; problem: string } => {
    const dir = join(out, "pddl", domain);
    const own = join(dir, `${problem}.domain.pddl`);
    return { domain: readFileSync(existsSync(own) ? own : join(dir, "domain.pddl"), "utf8"), problem: readFileSync(join(dir, `${problem}.pddl`), "utf8") };
  };
  const made = acpbenchLayout(shardRows(out, sorted), pddlOf);
  const texts = new Map<string, string>();
  const files: Record<string, number> = {};
  for (const [rel, text] of made.files) {
    texts.set(`${ACPBENCH_DIR}/${rel}`, text);
    files[`${ACPBENCH_DIR}/${rel}`] = made.records[rel]!;
  }
  return { texts, record: { name: layout, files, skipped: made.skipped } };
}

/** Files under `out/dir` (relative to `out`), without following links: what a failed merge must not leave behind. */
export function filesUnder(out: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (rel: string): void => {
    let names: string[];
    try {
      if (!lstatSync(join(out, rel)).isDirectory()) return;
      names = readdirSync(join(out, rel));
    } catch {
      return;
    }
    for (const n of names.sort()) {
      const r = `${rel}/${n}`;
      const st = lstatSync(join(out, r));
      if (st.isDirectory()) walk(r);
      else found.push(r);
    }
  };
  walk(dir);
  return found;
}

/** Remove the folders under `path` (and it) that are left empty, deepest first. */
export function removeEmptyFolders(path: string): void {
  try {
    if (!lstatSync(path).isDirectory()) return;
    for (const n of readdirSync(path)) removeEmptyFolders(join(path, n));
    if (readdirSync(path).length === 0) rmdirSync(path);
  } catch {
    // gone, or not ours to remove
  }
}
