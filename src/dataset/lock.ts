/**
 * One writer per output folder and rank: an advisory lock file `.pddl2prm-lock-{rank}` holding
 * the writer's pid and host. The ranks of one multi-machine run lock their own rank only, so
 * they still write side by side. A lock is stale when its process is gone: on this host, when
 * the pid is not alive; from another host (a rescheduled pod or Slurm job), when its holder has
 * stopped touching it (every holder refreshes its lock's mtime, a heartbeat).
 *
 * Hand-written rather than `proper-lockfile`/`lockfile`: those judge staleness by the lock's age
 * alone, comparing clocks of different machines; the holder's pid is the exact test on one host,
 * and a heartbeat watched for a change needs no clock agreement across hosts.
 */
import { hostname } from "node:os";
import { join } from "node:path";
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { UserError } from "../pddl/errors.js";
import { tempName } from "../util/atomic-write.js";
import { diskReason } from "./disk.js";

// (`config_hash`: the settings of the run holding it, so that ranks of one run tell each other from others)
const LockFile = z.object({ pid: z.number().int().positive(), host: z.string(), rank: z.number().int().nonnegative(), started: z.string(), config_hash: z.string().optional() });
type Holder = z.infer<typeof LockFile>;

const pad5 = (n: number) => String(n).padStart(5, "0");

/**
 * How often a holder touches its lock, ms; a lock from another host untouched for three of these
 * is stale. An environment variable shortens it in tests.
 */
function heartbeatMs(): number {
  const v = Number(process.env["PDDL2PRM_LOCK_HEARTBEAT_MS"]);
  return Number.isFinite(v) && v > 0 ? v : 10_000;
}

/** The lock file of `rank` in `out`. */
export function lockPath(out: string, rank: number): string {
  return join(out, `.pddl2prm-lock-${pad5(rank)}`);
}

export { LOCK_NAME } from "./reserved.js";
import { LOCK_NAME } from "./reserved.js";

/** Whether a process with this pid exists on this machine. */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

function readHolder(path: string): Holder | null | "corrupt" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new UserError(`${path}: cannot read the lock file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  try {
    const r = LockFile.safeParse(JSON.parse(text));
    return r.success ? r.data : "corrupt";
  } catch {
    return "corrupt";
  }
}

const sameHolder = (a: Holder | null | "corrupt", b: Holder): boolean =>
  a !== null && a !== "corrupt" && a.pid === b.pid && a.host === b.host && a.started === b.started;

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Whether the holder of a lock from another host is alive: its heartbeat moves the lock's mtime
 * within three heartbeats (or the lock changes hands or goes away: then it is not stale either).
 */
async function heartbeatSeen(path: string, holder: Holder): Promise<boolean> {
  const beat = heartbeatMs();
  const t0 = mtimeOf(path);
  for (let waited = 0; waited < 3 * beat; waited += beat / 4) {
    await sleep(beat / 4);
    if (mtimeOf(path) !== t0 || !sameHolder(readHolder(path), holder)) return true;
  }
  return false;
}

const describe = (h: Holder): string => `pid ${h.pid} on ${h.host === hostname() ? "this machine" : `host ${h.host}`}, since ${h.started}`;

/** A held lock; `release()` stops its heartbeat and removes it if it is still ours. */
export interface Lock {
  path: string;
  release(): void;
}

/**
 * Take the lock of `rank` in the existing folder `out`, or throw a UserError naming the run that
 * holds it. A stale lock (its process gone) is replaced; telling whether a lock from another
 * host is stale takes up to three heartbeats (30 s).
 */
export async function acquireLock(out: string, rank: number, configHash?: string): Promise<Lock> {
  const path = lockPath(out, rank);
  const me: Holder = { pid: process.pid, host: hostname(), rank, started: new Date().toISOString(), ...(configHash !== undefined ? { config_hash: configHash } : {}) };
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, JSON.stringify(me) + "\n");
  } catch (e) {
    rmSync(tmp, { force: true });
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new UserError(`${path}: cannot write the lock file (${diskReason(e)})`);
  }
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(tmp, path); // atomic: fails if a lock exists
        return held(path, me);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      const holder = readHolder(path);
      if (holder === null) continue; // released meanwhile
      if (holder === "corrupt") {
        throw new UserError(`${path}: not a valid lock file; if no pddl2prm run is writing to ${out}, remove it`);
      }
      const live = holder.host === hostname() ? holderAlive(path, holder) : await heartbeatSeen(path, holder);
      if (live) {
        if (!sameHolder(readHolder(path), holder)) continue; // changed hands: look again
        const rankText = rank > 0 || holder.rank > 0 ? ` (rank ${rank})` : "";
        throw new UserError(`${out} is being written by another pddl2prm run${rankText}: ${describe(holder)}; wait for it to finish, or use another --out`);
      }
      // Stale: move it aside, and put it back if what we moved is not the stale lock we read
      // (another run replaced it in between).
      const aside = `${path}.stale-${process.pid}`;
      try {
        renameSync(path, aside);
      } catch {
        continue;
      }
      if (!sameHolder(readHolder(aside), holder)) {
        try {
          linkSync(aside, path);
        } catch {
          // a third run holds it now; it will be reported on the next attempt
        }
      }
      rmSync(aside, { force: true });
    }
    throw new UserError(`${path}: could not take the lock (it keeps changing); is another pddl2prm run starting on ${out}?`);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** A lock we hold: its heartbeat runs until `release()`. */
/** Locks this process holds (a lock naming this pid and not among them is from before a restart). */
const heldHere = new Set<string>();

/**
 * When the process `pid` of this machine started (ms since the epoch), from /proc; null where
 * that cannot be read (not Linux). A lock older than its pid's process is from a process that
 * is gone: the pid was reused (a container restart gives the same pid again).
 */
function processStartMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]); // starttime: field 22 of the line, 20th after the name
    const btime = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    if (!Number.isFinite(ticks) || btime === null) return null;
    return Number(btime[1]) * 1000 + (ticks / 100) * 1000; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** Whether the holder of a lock on this machine is a live process that is still that holder. */
function holderAlive(path: string, h: Holder): boolean {
  if (h.pid === process.pid) return heldHere.has(path);
  if (!pidAlive(h.pid)) return false;
  const startedAt = processStartMs(h.pid);
  const lockedAt = Date.parse(h.started);
  // 2 s of slack: boot time and clock ticks are coarse
  return startedAt === null || !Number.isFinite(lockedAt) || startedAt <= lockedAt + 2000;
}

function held(path: string, me: Holder): Lock {
  heldHere.add(path);
  const timer = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // the folder may be gone (--force elsewhere); release() will find out
    }
  }, heartbeatMs());
  timer.unref();
  return {
    path,
    release: () => {
      clearInterval(timer);
      heldHere.delete(path);
      if (sameHolder(readHolder(path), me)) rmSync(path, { force: true });
    },
  };
}

/**
 * Ranks of `out` other than `rank` whose lock is held by a run that may still be writing (a
 * lock from another host counts as held: that cannot be told without waiting). Given
 * `configHash`, ranks whose lock names those same settings (ranks of this very run) are left out.
 */
export function otherLiveRanks(out: string, rank: number, configHash?: string): number[] {
  let names: string[];
  try {
    names = readdirSync(out);
  } catch {
    return [];
  }
  const live: number[] = [];
  for (const n of names) {
    if (!LOCK_NAME.test(n)) continue;
    const r = Number(n.slice(-5));
    if (r === rank) continue;
    const h = readHolder(join(out, n));
    if (configHash !== undefined && h !== null && h !== "corrupt" && h.config_hash === configHash) continue;
    if (h === "corrupt" || (h !== null && (h.host !== hostname() || holderAlive(join(out, n), h)))) live.push(r);
  }
  return live;
}
