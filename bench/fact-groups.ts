/**
 * bench/fact-groups: our fact groups (src/task/invariants.ts) against Fast Downward's translator.
 *
 *   npm run bench:fact-groups -- --fd PATH/fast-downward.py --benchmarks DIR
 *       [--per-domain 3] [--only a,b] [--cache DIR] [--verbose]
 *
 * For the N smallest problems (by file size) of every folder of DIR, the translator runs with
 * --keep-unreachable-facts --skip-variable-reordering --keep-unimportant-variables, so that the
 * variables of its output.sas are exactly its fact groups in order and its mutex-group section
 * holds every mutex group it found (outputs are cached under --cache, default
 * $TMPDIR/pddl2prm-fact-groups-fd, never in the repository). Our `groups` and `mutexGroups` are
 * compared with them atom by atom (`Atom on(a, b)` <-> `(on a b)`); derived variables are left
 * out on both sides. Instances are skipped when the translator rejects them, times out (60 s) or
 * proves them unsolvable, and when our grounding fails or exceeds 100,000 operators.
 * Per instance: equal / differs (first difference; where the fact sets differ, which atoms, and
 * whether FD's groups without them equal ours), and computeFactGroups' CPU time beside the
 * grounding's; then a summary line.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { domainFileFor, isDomainFileName } from "../src/pddl/files.js";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import { ground } from "../src/task/ground.js";
import { computeFactGroups } from "../src/task/invariants.js";
import { arg, median } from "./reference.js";
import { checkBenchFlags } from "./args.js";

const MAX_OPS = 100_000;

/** CPU time of this process in ms (the machine may be shared: wall-clock times would be noise). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
const TRANSLATE_S = 60;

interface Options {
  fd: string;
  benchmarks: string;
  perDomain: number;
  only: Set<string> | null;
  cache: string;
  verbose: boolean;
}

function options(): Options | null {
  checkBenchFlags(
    "bench/fact-groups",
    "usage: npm run bench:fact-groups -- --fd PATH/fast-downward.py --benchmarks DIR [--per-domain 3] [--only a,b] [--cache DIR] [--verbose]",
    { values: ["--fd", "--benchmarks", "--per-domain", "--only", "--cache"], switches: ["--verbose"] },
  );
  const fd = arg("--fd");
  const benchmarks = arg("--benchmarks");
  if (!fd || !benchmarks) {
    process.stderr.write("usage: npm run bench:fact-groups -- --fd PATH/fast-downward.py --benchmarks DIR [--per-domain 3] [--only a,b] [--cache DIR] [--verbose]\n");
    process.exitCode = 2;
    return null;
  }
  const only = arg("--only");
  return {
    fd,
    benchmarks,
    perDomain: Number(arg("--per-domain") ?? 3),
    only: only ? new Set(only.split(",")) : null,
    cache: arg("--cache") ?? join(tmpdir(), "pddl2prm-fact-groups-fd"),
    verbose: process.argv.includes("--verbose"),
  };
}

/** The `n` smallest problems of a folder (by size, then name). */
function instances(dir: string, n: number): string[] {
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(".pddl") && !isDomainFileName(f))
    .map((f) => ({ f, size: statSync(join(dir, f)).size }))
    .sort((a, b) => a.size - b.size || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0))
    .slice(0, n)
    .map(({ f }) => f);
}

/** The translator's output.sas (cached), or why there is none. */
function translate(o: Options, folder: string, problem: string, domain: string): { sas: string } | { fail: string } {
  const base = join(o.cache, folder, problem);
  if (existsSync(`${base}.sas`)) return { sas: readFileSync(`${base}.sas`, "utf8") };
  if (existsSync(`${base}.fail`)) return { fail: readFileSync(`${base}.fail`, "utf8").trim() };
  mkdirSync(join(o.cache, folder), { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "bench-fact-groups-"));
  try {
    const args = [o.fd, "--translate-time-limit", `${TRANSLATE_S}s`, "--translate", domain, join(o.benchmarks, folder, problem),
      "--translate-options", "--keep-unreachable-facts", "--skip-variable-reordering", "--keep-unimportant-variables"];
    const r = spawnSync("python3", args, { cwd: dir, encoding: "utf8", timeout: (TRANSLATE_S + 30) * 1000, maxBuffer: 1 << 28 });
    const out = join(dir, "output.sas");
    if (r.status === 0 && existsSync(out)) {
      renameSync(out, `${base}.sas`);
      return { sas: readFileSync(`${base}.sas`, "utf8") };
    }
    const lines = `${r.stdout ?? ""}\n${r.stderr ?? ""}`.split("\n").filter((l) => l.trim() && !/^INFO\s/.test(l));
    const why = `exit ${r.status ?? r.signal}: ${lines.slice(-2).join(" / ").slice(0, 200)}`;
    writeFileSync(`${base}.fail`, why + "\n");
    return { fail: why };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Sas {
  /** Atom names (ours) of each variable that is not derived. */
  groups: string[][];
  mutexes: string[][];
  /** Every atom of a variable that is not derived. */
  atoms: Set<string>;
  /** The translator proved the task unsolvable and wrote a trivial task. */
  trivial: boolean;
}

/** `Atom on(a, b)` -> `(on a b)`; null for other values. */
function atomName(value: string): string | null {
  const m = /^Atom (.*)\((.*)\)$/.exec(value);
  if (!m) return null;
  const args = m[2]!.trim() ? m[2]!.split(",").map((s) => s.trim()) : [];
  return `(${[m[1]!, ...args].join(" ")})`;
}

/**
 * Parse output.sas. Derived variables are those of derived predicates, including the
 * translator's `new-axiom@N` (some have axiom layer -1 when their axioms were simplified away).
 */
function parseSas(text: string, derived: Set<string>): Sas {
  const lines = text.split("\n");
  let i = 0;
  const next = (): string => lines[i++]!.trim();
  while (next() !== "end_metric");
  const nvars = Number(next());
  const values: string[][] = [];
  const groups: string[][] = [];
  let trivial = false;
  for (let v = 0; v < nvars; v++) {
    next(); // begin_variable
    next(); // name
    const layer = Number(next());
    const n = Number(next());
    const vals: string[] = [];
    for (let k = 0; k < n; k++) vals.push(lines[i++]!.replace(/\r$/, ""));
    next(); // end_variable
    values.push(vals);
    if (vals.some((x) => x.startsWith("Atom dummy("))) trivial = true;
    const atoms = vals.map(atomName).filter((x): x is string => x !== null);
    const pred = /^\(([^ )]*)/.exec(atoms[0] ?? "")?.[1] ?? "";
    if (layer !== -1 || derived.has(pred) || pred.startsWith("new-axiom@")) continue;
    groups.push(atoms);
  }
  const nm = Number(next());
  const mutexes: string[][] = [];
  for (let k = 0; k < nm; k++) {
    next(); // begin_mutex_group
    const n = Number(next());
    const g: string[] = [];
    for (let j = 0; j < n; j++) {
      const [v, val] = next().split(" ").map(Number);
      const name = atomName(values[v!]![val!]!);
      if (name) g.push(name);
    }
    next(); // end_mutex_group
    mutexes.push(g);
  }
  return { groups, mutexes, atoms: new Set(groups.flat()), trivial };
}

function firstDifference(ours: string[][], fd: string[][], what: string): string | null {
  for (let k = 0; k < Math.max(ours.length, fd.length); k++) {
    const a = ours[k];
    const b = fd[k];
    if (a && b && a.join(" ") === b.join(" ")) continue;
    const show = (g: string[] | undefined): string => (g ? `{${g.join(" ")}}`.slice(0, 160) : "none");
    return `${what} ${k} of ${ours.length}/${fd.length}: ours ${show(a)} fd ${show(b)}`;
  }
  return null;
}

interface Row {
  name: string;
  status: "equal" | "differs" | "skipped";
  note: string;
  groupsEqual?: boolean;
  mutexEqual?: boolean;
  /** Our grounding and the translator's exploration reach different atoms. */
  atomsDiffer?: boolean;
  /** The atoms differ, but FD's groups without its extra atoms equal ours. */
  equalOnOurAtoms?: boolean;
  groundMs?: number;
  fgMs?: number;
}

function run(o: Options): void {
  const rows: Row[] = [];
  const folders = readdirSync(o.benchmarks)
    .filter((d) => statSync(join(o.benchmarks, d)).isDirectory() && (!o.only || o.only.has(d)))
    .sort();
  for (const folder of folders) {
    const dir = join(o.benchmarks, folder);
    for (const problem of instances(dir, o.perDomain)) {
      const name = `${folder}/${problem}`;
      const domain = domainFileFor(dir, problem);
      const row = compare(o, folder, problem, domain);
      rows.push({ ...row, name });
      const times = row.fgMs !== undefined ? ` groups ${row.fgMs.toFixed(1)} ms, ground ${row.groundMs!.toFixed(1)} ms` : "";
      process.stdout.write(`${name}: ${row.status}${row.note ? ` (${row.note})` : ""}${times}\n`);
    }
  }
  const compared = rows.filter((r) => r.status !== "skipped");
  const gEq = compared.filter((r) => r.groupsEqual).length;
  const mEq = compared.filter((r) => r.mutexEqual).length;
  const skipped = rows.filter((r) => r.status === "skipped");
  const ratios = compared.map((r) => r.fgMs! / Math.max(r.groundMs!, 0.01));
  const fgTimes = compared.map((r) => r.fgMs!);
  const pct = (k: number) => (compared.length ? ((100 * k) / compared.length).toFixed(1) : "-");
  process.stdout.write(
    `\nsummary: ${rows.length} instances, ${compared.length} compared, groups equal ${gEq}/${compared.length} (${pct(gEq)}%), ` +
      `mutex groups equal ${mEq}/${compared.length} (${pct(mEq)}%), skipped ${skipped.length}; ` +
      `computeFactGroups median ${median(fgTimes).toFixed(1)} ms, max ${Math.max(0, ...fgTimes).toFixed(0)} ms, ` +
      `median ratio to grounding ${median(ratios).toFixed(2)}, max ${Math.max(0, ...ratios).toFixed(2)}\n`,
  );
  const same = compared.filter((r) => !r.atomsDiffer);
  const sameEq = same.filter((r) => r.groupsEqual).length;
  const modulo = compared.filter((r) => r.equalOnOurAtoms).length;
  process.stdout.write(
    `where both reach the same atoms: groups equal ${sameEq}/${same.length}; ` +
      `fact sets differ (grounding, not fact groups) on ${compared.length - same.length}, ` +
      `of which ${modulo} have groups equal to FD's once the atoms only FD reaches are removed\n`,
  );
  const differing = compared.filter((r) => r.status === "differs");
  if (differing.length) process.stdout.write(`differs: ${differing.map((r) => `${r.name}${r.atomsDiffer ? " (fact sets differ)" : ""}`).join(", ")}\n`);
}

function compare(o: Options, folder: string, problem: string, domainFile: string | null): Omit<Row, "name"> {
  if (!domainFile) return { status: "skipped", note: "no domain file" };
  const fd = translate(o, folder, problem, domainFile);
  if ("fail" in fd) return { status: "skipped", note: `translator: ${fd.fail}` };
  let task;
  let groundMs;
  try {
    const d = parseDomainFile(domainFile);
    const p = parseProblemFile(join(o.benchmarks, folder, problem), d);
    const t0 = cpuMs();
    task = ground(d, p, { maxOps: MAX_OPS });
    groundMs = cpuMs() - t0;
  } catch (e) {
    return { status: "skipped", note: `ours: ${(e as Error).message.split("\n")[0]!.slice(0, 160)}` };
  }
  const sas = parseSas(fd.sas, new Set(task.domain.derived.map((x) => x.predicate)));
  if (sas.trivial) return { status: "skipped", note: "translator: trivial (unsolvable) task" };
  const t1 = cpuMs();
  const fg = computeFactGroups(task);
  const fgMs = cpuMs() - t1;
  const names = (gs: Int32Array[]): string[][] => gs.map((g) => Array.from(g, (f) => task.factNames[f]!));
  const ourGroups = names(fg.groups);
  const ourMutex = names(fg.mutexGroups).map((g) => g.slice().sort());
  // FD's mutex groups: the found ones, then singletons for the atoms they do not cover.
  const fdMutexFound = sas.mutexes.slice(0, ourMutex.length).map((g) => g.slice().sort());
  const rest = sas.mutexes.slice(ourMutex.length);
  const gd = firstDifference(ourGroups, sas.groups, "group");
  let md = firstDifference(ourMutex, fdMutexFound, "mutex group");
  if (!md && rest.some((g) => g.length > 1)) md = `mutex groups: fd has ${rest.filter((g) => g.length > 1).length} more`;
  const ourAtoms = new Set(ourGroups.flat());
  const onlyFd = [...sas.atoms].filter((a) => !ourAtoms.has(a));
  const onlyOurs = [...ourAtoms].filter((a) => !sas.atoms.has(a));
  const atomsDiffer = onlyFd.length > 0 || onlyOurs.length > 0;
  const atomNote = atomsDiffer
    ? `fact sets differ: ${onlyFd.length} atoms only FD reaches (e.g. ${onlyFd.slice(0, 2).join(" ")}), ${onlyOurs.length} only we reach${onlyOurs.length ? ` (e.g. ${onlyOurs.slice(0, 2).join(" ")})` : ""}`
    : null;
  // With the atoms only FD reaches taken out of its groups: did they change anything else?
  const drop = new Set(onlyFd);
  const fdGroupsOurAtoms = sas.groups.map((g) => g.filter((a) => !drop.has(a))).filter((g) => g.length > 0);
  const equalOnOurAtoms = atomsDiffer && onlyOurs.length === 0 && !firstDifference(ourGroups, fdGroupsOurAtoms, "group");
  const note = [atomNote, gd, md, equalOnOurAtoms ? "groups equal once those atoms are removed" : null].filter((x) => x).join("; ");
  return { status: gd || md ? "differs" : "equal", note, groupsEqual: !gd, mutexEqual: !md, atomsDiffer, equalOnOurAtoms, groundMs, fgMs };
}

const o = options();
if (o) run(o);
