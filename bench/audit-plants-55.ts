/**
 * bench/audit-plants-55: issue 55's planted shortcuts (bench/plants-55.ts) against `pddl2prm
 * audit`, on clean folders of seven formats and two seeds. For each build given with --cli, it
 * audits every clean folder (it must pass), every plant (it must fail, on a check that names the
 * planted feature) and the label-free controls (the verdict must not change).
 *
 *   node dist/bench/audit-plants-55.js --clean DIR [--cli LABEL=MAIN_JS ...] [--seeds 4242,9090]
 *     [--set plants|families|held-out|controls|clean|all] [--only NAME,...] [--work DIR] [--out FILE]
 *
 * DIR holds the clean folders as FORMAT-SEED (pddl2prm generate --domain all --count 40 --seed
 * SEED --format FORMAT --out DIR/FORMAT-SEED); planted copies go to --work (default DIR/planted).
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONTROLS_55, FAMILY_PLANTS, HELD_OUT_55, plant55, PLANTS_55, type Plant55 } from "./plants-55.js";

const args = process.argv.slice(2);
const opt = (name: string): string[] => args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1]!] : []));
const clean = opt("--clean")[0];
if (clean === undefined) {
  console.error("usage: node dist/bench/audit-plants-55.js --clean DIR [--cli LABEL=MAIN_JS ...] [--seeds 4242,9090] [--set plants|families|held-out|controls|clean|all] [--only NAME,...] [--work DIR] [--out FILE]");
  process.exit(2);
}
const clis = (opt("--cli").length > 0 ? opt("--cli") : [`this=${resolve("dist/src/cli/main.js")}`]).map((x) => {
  const at = x.indexOf("=");
  return { label: x.slice(0, at), main: resolve(x.slice(at + 1)) };
});
const seeds = (opt("--seeds")[0] ?? "4242,9090").split(",");
const set = opt("--set")[0] ?? "all";
const only = opt("--only")[0]?.split(",");
const work = opt("--work")[0] ?? join(clean, "planted");
const out = opt("--out")[0];
const FORMATS = ["native", "trl", "pairs", "trajectories", "processbench", "verifier", "feedback"];

function say(line: string): void {
  process.stdout.write(line + "\n");
  if (out !== undefined) appendFileSync(out, line + "\n");
}

interface Run {
  code: number;
  fails: string[];
  seconds: number;
  report: Record<string, unknown> | null;
}

function audit(main: string, dir: string, json = false): Run {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [main, "audit", dir, ...(json ? ["--json"] : [])], { encoding: "utf8", maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (json) return { code: r.status ?? -1, fails: [], seconds, report: r.stdout.trim().startsWith("{") ? (JSON.parse(r.stdout) as Record<string, unknown>) : null };
  return { code: r.status ?? -1, fails: r.stdout.split("\n").filter((l) => l.startsWith("  FAIL ")), seconds, report: null };
}

const folder = (format: string, seed: string): string => join(clean, `${format}-${seed}`);
mkdirSync(work, { recursive: true });
const pick = (ps: Plant55[]): Plant55[] => ps.filter((p) => only === undefined || only.includes(p.name));

if (set === "clean" || set === "all") {
  say("## clean folders (--domain all --count 40): exit code, failed checks");
  for (const c of clis) for (const seed of seeds) for (const f of FORMATS) {
    const r = audit(c.main, folder(f, seed));
    say(`${c.label}\tclean\t${f}\t${seed}\t${r.code === 0 ? "pass" : "FAIL"}\t${r.seconds.toFixed(1)}s\t${r.fails.map((l) => l.trim()).join(" | ")}`);
  }
}

const plantSets: [string, Plant55[]][] = [];
if (set === "plants" || set === "all") plantSets.push(["plants", pick(PLANTS_55)]);
if (set === "families" || set === "all") plantSets.push(["families", pick(FAMILY_PLANTS)]);
if (set === "held-out") plantSets.push(["held-out", pick(HELD_OUT_55)]);
for (const [label, plants] of plantSets) {
  say(`## ${label}: caught (exit 1) and named (a failed check matches the plant's feature)`);
  for (const p of plants) for (const seed of seeds) {
    const dir = join(work, `${p.name}-${seed}`);
    plant55(folder(p.format, seed), dir, p);
    for (const c of clis) {
      const r = audit(c.main, dir);
      const named = r.fails.filter((l) => p.names.test(l));
      const shown = (named.length > 0 ? named : r.fails).slice(0, 3).map((l) => l.trim().slice(0, 300));
      say(`${c.label}\t${p.name}\t${seed}\tcaught=${r.code === 1 ? "yes" : "no"}\tnamed=${named.length > 0 ? "yes" : "no"}\t${r.seconds.toFixed(1)}s\t${shown.join(" | ")}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

if (set === "controls" || set === "all") {
  say("## controls: verdict and figures of the clean folder against the shuffled copy");
  for (const p of pick(CONTROLS_55)) for (const seed of seeds) {
    const dir = join(work, `${p.name}-${seed}`);
    plant55(folder(p.format, seed), dir, p);
    for (const c of clis) {
      const a = audit(c.main, folder(p.format, seed), true).report;
      const b = audit(c.main, dir, true).report;
      if (a === null || b === null) {
        say(`${c.label}\t${p.name}\t${seed}\tno report`);
        continue;
      }
      // the row-order rules read the order a shuffle of a state's rows changes: their own figures apart
      const diff = compare(a, b);
      const other = diff.filter((d) => !d.includes("row order"));
      const gap = (x: Record<string, unknown>): string => ((x["classifiers"] as { gap: number }).gap).toFixed(4);
      const order = (x: Record<string, unknown>): string =>
        (x["rules"] as { name: string; group: string; value: number; se: number }[]).filter((r) => r.name.startsWith("row order")).map((r) => `${r.group} ${r.value.toFixed(3)}`).join(", ");
      say(`${c.label}\t${p.name}\t${seed}\tpass ${String(a["pass"])} -> ${String(b["pass"])}\tgap ${gap(a)} -> ${gap(b)}\tfigures that differ: ${other.length} outside the row-order rules${other.length > 0 ? ` (${other.slice(0, 6).join("; ")})` : ""}, ${diff.length - other.length} of theirs\trow order: ${order(a)} -> ${order(b)}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The numbers of two reports that differ (past 1e-9), by path. */
function compare(a: unknown, b: unknown, path = ""): string[] {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) > 1e-9 || Number.isNaN(a) !== Number.isNaN(b) ? [`${path} ${a.toFixed(4)} -> ${b.toFixed(4)}`] : [];
  if (Array.isArray(a) && Array.isArray(b)) return a.flatMap((x, i) => compare(x, b[i], `${path}[${describe(x, i)}]`));
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    return Object.keys(a).filter((k) => k !== "dir").flatMap((k) => compare((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path === "" ? k : `${path}.${k}`));
  }
  return a === b || path.endsWith("top") || path.endsWith("features") ? [] : [`${path} ${JSON.stringify(a)?.slice(0, 40)} -> ${JSON.stringify(b)?.slice(0, 40)}`];
}

function describe(x: unknown, i: number): string {
  if (x !== null && typeof x === "object" && !Array.isArray(x)) {
    const o = x as Record<string, unknown>;
    const n = o["name"] ?? o["probe"];
    if (typeof n === "string") return `${n} ${String(o["group"] ?? "")}`.trim();
  }
  return String(i);
}
