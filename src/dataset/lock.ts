/**
 * One writer per output folder and rank: an advisory lock file `.pddl2prm-lock-{rank}` holding
 * the writer's pid and host. The ranks of one multi-machine run lock their own rank only, so
 * they still write side by side. A lock whose process is gone (same host, pid not alive) is
 * stale and taken over; a lock from another host cannot be checked and is respected.
 *
 * Hand-written rather than `proper-lockfile`/`lockfile`: those judge staleness by the lock's age
 * (and need a timer refreshing it), while a dataset run may take hours; the holder's pid is the
 * exact test.
 */
import { hostname } from "node:os";
import { join } from "node:path";
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { UserError } from "../pddl/errors.js";
import { tempName } from "../util/atomic-write.js";

const LockFile = z.object({ pid: z.number().int().positive(), host: z.string(), rank: z.number().int().nonnegative(), started: z.string() });
type Holder = z.infer<typeof LockFile>;

const pad5 = (n: number) => String(n).padStart(5, "0");

/** The lock file of `rank` in `out`. */
export function lockPath(out: string, rank: number): string {
  return join(out, `.pddl2prm-lock-${pad5(rank)}`);
}

/** Names of lock files (any rank). */
export const LOCK_NAME = /^\.pddl2prm-lock-\d{5}$/;

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

/** Whether a holder may still be writing: alive here, or on another host (unknowable). */
function holderLive(h: Holder): boolean {
  return h.host !== hostname() || pidAlive(h.pid);
}

const describe = (h: Holder): string => `pid ${h.pid} on ${h.host === hostname() ? "this machine" : `host ${h.host}`}, since ${h.started}`;

/** A held lock; `release()` removes it if it is still ours. */
export interface Lock {
  path: string;
  release(): void;
}

/**
 * Take the lock of `rank` in the existing folder `out`, or throw a UserError naming the run that
 * holds it. A stale lock (its process gone) is replaced.
 */
export function acquireLock(out: string, rank: number): Lock {
  const path = lockPath(out, rank);
  const me: Holder = { pid: process.pid, host: hostname(), rank, started: new Date().toISOString() };
  const tmp = tempName(path);
  writeFileSync(tmp, JSON.stringify(me) + "\n");
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(tmp, path); // atomic: fails if a lock exists
        return {
          path,
          release: () => {
            const h = readHolder(path);
            if (h !== null && h !== "corrupt" && h.pid === me.pid && h.started === me.started) rmSync(path, { force: true });
          },
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      const holder = readHolder(path);
      if (holder === null) continue; // released meanwhile
      if (holder === "corrupt") {
        throw new UserError(`${path}: not a valid lock file; if no pddl2prm run is writing to ${out}, remove it`);
      }
      if (holderLive(holder)) {
        const rankText = rank > 0 || holder.rank > 0 ? ` (rank ${rank})` : "";
        throw new UserError(
          `${out} is being written by another pddl2prm run${rankText}: ${describe(holder)}; wait for it to finish, or use another --out` +
            (holder.host !== hostname() ? ` (if that run is gone, remove ${path})` : ""),
        );
      }
      // Stale: move it aside, and put it back if what we moved is not the stale lock we read
      // (another run replaced it in between).
      const aside = `${path}.stale-${process.pid}`;
      try {
        renameSync(path, aside);
      } catch {
        continue;
      }
      const moved = readHolder(aside);
      if (moved === null || moved === "corrupt" || moved.pid !== holder.pid || moved.started !== holder.started) {
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

/** Ranks of `out` other than `rank` whose lock is held by a run that may still be writing. */
export function otherLiveRanks(out: string, rank: number): number[] {
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
    if (h === "corrupt" || (h !== null && holderLive(h))) live.push(r);
  }
  return live;
}
