/**
 * Kill sweep (issue 50): SIGKILL a command at each of its file-system steps, run it again, and
 * check that the folder then holds exactly the bytes of the command run once, alone, with
 * nothing of pddl2prm's own left over (temporary files, staging folder, journal, lock).
 *
 *   node dist/bench/kill-sweep.js [--job force|merge|all] [--domain hanoi,ferry] [--count 3]
 *                                 [--syscalls rename,link,unlink,rmdir,mkdir] [--every K]
 *
 * Jobs: `force` is `generate --force` with seed 2 over a complete seed-1 dataset (the whole run:
 * its shards, PDDL copies, completion record, merge and swap); `merge` is `pddl2prm merge` of a
 * two-rank run whose ranks are complete. Steps are the calls strace logs for the given system
 * calls; each is reached again with strace's fault injection (`inject=<call>:signal=SIGKILL:when=<n>`),
 * counted per system call as strace does. (`openat` may be given, only its O_CREAT calls are
 * steps, but its counts shift between runs with the threads' own opens: such a step may not be
 * reached, and is reported as not killed; writes into a file already open are not steps.)
 * `--every K` takes every K-th step (a quicker sweep). Needs strace (ptrace allowed); prints one
 * line per step that fails and a summary; exit 1 when any step fails.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../src/util/paths.js";

const CLI = join(packageRoot(), "dist", "src", "cli", "main.js");

/** Every entry below `dir` (folders with "/", files with a hash of their bytes), sorted; links not followed. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort().map((rel) => {
    const p = join(dir, rel);
    const st = lstatSync(p);
    if (st.isDirectory()) return `${rel}/`;
    if (st.isSymbolicLink()) return `${rel} -> link`;
    return `${rel} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 16)}`;
  });
}

/** What pddl2prm keeps only while it works: none may be left after a run that ended well. */
const LEFTOVER = /\.tmp-\d+|(^|\/)\.pddl2prm-(next|swap|lock)/;

function cli(args: string[], cwd: string): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { code: r.status, stderr: r.stderr };
}

/** The calls of `syscalls` the command makes, each as the injection that stops it there. */
function steps(args: string[], syscalls: string[], cwd: string): { call: string; at: string }[] {
  const log = join(cwd, `strace-${process.pid}.log`);
  const r = spawnSync("strace", ["-f", "-qq", "-o", log, "-e", `trace=${syscalls.join(",")}`, process.execPath, CLI, ...args], { cwd });
  if (r.status !== 0) throw new Error(`the traced run failed (exit ${r.status}): ${String(r.stderr).slice(0, 400)}`);
  const seen = new Map<string, number>();
  const out: { call: string; at: string }[] = [];
  for (const line of readFileSync(log, "utf8").split("\n")) {
    const m = /^\d+\s+(\w+)\((.*)$/.exec(line);
    if (m === null || !syscalls.includes(m[1]!)) continue;
    const n = (seen.get(m[1]!) ?? 0) + 1;
    seen.set(m[1]!, n);
    // an open that creates nothing changes nothing on disk
    if (m[1] === "openat" && !m[2]!.includes("O_CREAT")) continue;
    out.push({ call: `${m[1]}(${m[2]!.slice(0, 110)}`, at: `${m[1]}:signal=SIGKILL:when=${n}` });
  }
  rmSync(log);
  return out;
}

interface Job {
  name: string;
  /** Makes the folder the command starts from (in `dir`), returns the command's arguments. */
  prepare(dir: string): string[];
}

function gen(out: string, seed: number, domain: string, count: number, extra: string[] = []): string[] {
  return ["generate", "--domain", domain, "--count", String(count), "--seed", String(seed), "--workers", "1", "--quiet", "--out", out, ...extra];
}

function must(r: { code: number | null; stderr: string }, what: string): void {
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${r.stderr.trim().slice(0, 400)}`);
}

function jobs(domain: string, count: number, base: string): Job[] {
  return [
    {
      name: "force",
      prepare: (dir) => {
        must(cli(gen(join(dir, "ds"), 1, domain, count), base), "generate seed 1");
        return gen(join(dir, "ds"), 2, domain, count, ["--force"]);
      },
    },
    {
      name: "merge",
      prepare: (dir) => {
        for (const rank of ["0", "1"]) must(cli(gen(join(dir, "ds"), 1, domain, count, ["--world", "2", "--rank", rank]), base), `generate rank ${rank}`);
        return ["merge", join(dir, "ds")];
      },
    },
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      job: { type: "string", default: "all" },
      domain: { type: "string", default: "hanoi,ferry" },
      count: { type: "string", default: "3" },
      syscalls: { type: "string", default: "rename,link,unlink,rmdir,mkdir" },
      every: { type: "string", default: "1" },
    },
  });
  if (spawnSync("strace", ["-f", "-o", "/dev/null", "true"]).status !== 0) throw new Error("strace with ptrace is needed (not available here)");
  const count = Number(values.count);
  const every = Math.max(1, Number(values.every));
  const syscalls = values.syscalls!.split(",");
  const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-kill-sweep-"));
  let failures = 0;
  try {
    for (const job of jobs(values.domain!, count, tmp)) {
      if (values.job !== "all" && values.job !== job.name) continue;
      const t0 = Date.now();
      // the folder the command starts from, and what the command alone makes of it
      const template = join(tmp, `${job.name}-template`);
      const args = job.prepare(template);
      const rel = (a: string[]): string[] => a.map((x) => x.split(template).join("<DIR>"));
      const alone = join(tmp, `${job.name}-alone`);
      cpSync(template, alone, { recursive: true, verbatimSymlinks: true });
      const at = (dir: string): string[] => rel(args).map((x) => x.split("<DIR>").join(dir));
      must(cli(at(alone), tmp), `${job.name} alone`);
      const want = snapshot(join(alone, "ds"));
      const traced = join(tmp, `${job.name}-traced`);
      cpSync(template, traced, { recursive: true, verbatimSymlinks: true });
      const all = steps(at(traced), syscalls, tmp);
      let ran = 0;
      let killed = 0;
      let failed = 0;
      for (let n = 0; n < all.length; n += every) {
        const dir = join(tmp, `${job.name}-${n}`);
        cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
        const k = spawnSync("strace", ["-f", "-qq", "-o", "/dev/null", "-e", `inject=${all[n]!.at}`, process.execPath, CLI, ...at(dir)], { cwd: tmp, encoding: "utf8" });
        ran++;
        if (k.signal === "SIGKILL" || k.status === 137) killed++;
        else if (process.env.KILL_SWEEP_DEBUG) console.log(`not killed at ${all[n]!.call}: exit ${k.status} ${k.signal}`);
        const again = cli(at(dir), tmp);
        const got = snapshot(join(dir, "ds"));
        const left = got.filter((l) => LEFTOVER.test(l));
        const same = JSON.stringify(got) === JSON.stringify(want);
        if (again.code !== 0 || !same || left.length > 0) {
          failed++;
          const diff = [...got.filter((l) => !want.includes(l)).map((l) => `+${l}`), ...want.filter((l) => !got.includes(l)).map((l) => `-${l}`)].slice(0, 6);
          console.log(`FAIL ${job.name} step ${n + 1}/${all.length} ${all[n]!.call}: re-run exit ${again.code}${again.stderr ? ` (${again.stderr.trim().split("\n")[0]})` : ""}; ${same ? "same bytes" : `differs: ${diff.join(" ")}`}${left.length ? `; left over: ${left.join(", ")}` : ""}`);
        }
        rmSync(dir, { recursive: true, force: true });
      }
      failures += failed;
      const byCall = new Map<string, number>();
      for (const s of all) byCall.set(s.at.split(":")[0]!, (byCall.get(s.at.split(":")[0]!) ?? 0) + 1);
      console.log(
        `${job.name}: pddl2prm ${rel(args).join(" ")}\n  ${all.length} steps (${[...byCall].map(([c, k]) => `${c} ${k}`).join(", ")}), ${ran} swept, ${killed} killed there; ` +
          `re-run equal to the command alone, nothing left over: ${ran - failed}/${ran}; ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (failures > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(`kill-sweep: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
