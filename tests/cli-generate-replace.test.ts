/**
 * `--force` replaces, never deletes first (issue 37): the new dataset is made beside the old one
 * and swapped in complete; files pddl2prm cannot prove it wrote are never moved, replaced or
 * deleted; a lock left by a process before a restart (same pid) is stale.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, cliRunner, ROOT } from "./cli-run.js";
import { acquireLock } from "../src/dataset/lock.js";
import { ownedHashes } from "../src/dataset/ownership.js";
import { JOURNAL, STAGE } from "../src/dataset/replace.js";

const FIX = join(ROOT, "tests", "fixtures", "conformance", "per-problem-domains");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-replace-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = cliRunner(tmp);

/** Every file below `dir` with a hash of its bytes, sorted (folders too). */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort().map((rel) => {
    const p = join(dir, rel);
    return statSync(p).isDirectory() ? `${rel}/` : `${rel} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 12)}`;
  });
}
const visible = (dir: string): string[] => snapshot(dir).filter((l) => !l.startsWith(".pddl2prm"));
const seedOf = (out: string): number => JSON.parse(readFileSync(join(out, "config.json"), "utf8")).config.seed as number;

async function waitFor(cond: () => boolean, ms = 60_000): Promise<boolean> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

/** A run that takes a few seconds: 100 ferry problems on one worker. */
const SLOW = ["generate", "--domain", "ferry", "--workers", "1", "--quiet"];

describe("--force stopped at any moment keeps the old dataset", () => {
  it("SIGKILL / SIGINT at five moments: the old dataset byte-identical; the corrected re-run replaces it", async () => {
    const out = join(tmp, "kill");
    expect((await run([...SLOW, "--out", out, "--seed", "1"])).code).toBe(0);
    const old = visible(out);
    const stage = join(out, STAGE);
    const moments: [string, "SIGKILL" | "SIGINT", () => boolean][] = [
      ["the staging folder appears", "SIGKILL", () => existsSync(stage)],
      ["a temporary shard is written", "SIGKILL", () => existsSync(join(stage, "data")) && readdirSync(join(stage, "data")).some((n) => n.includes(".tmp-"))],
      ["a temporary shard is written (Ctrl-C)", "SIGINT", () => existsSync(join(stage, "data")) && readdirSync(join(stage, "data")).some((n) => n.includes(".tmp-"))],
      ["PDDL copies are written", "SIGKILL", () => existsSync(join(stage, "pddl", "ferry")) && readdirSync(join(stage, "pddl", "ferry")).length > 20],
      ["its rank is complete", "SIGKILL", () => existsSync(join(stage, "completions", "00000"))],
    ];
    for (const [when, sig, cond] of moments) {
      const child = spawn(process.execPath, [CLI, ...SLOW, "--out", out, "--seed", "2", "--force"], { cwd: tmp, stdio: "ignore" });
      const closed = new Promise((res) => child.on("close", res));
      const reached = await waitFor(cond);
      child.kill(sig);
      await closed;
      expect(reached, when).toBe(true);
      // the old dataset, as it was (or the new one, complete, if the kill came after the swap)
      const now = visible(out);
      if (seedOf(out) === 1) expect(now, when).toEqual(old);
      else expect(existsSync(join(out, JOURNAL)), when).toBe(false);
    }
    const r = await run([...SLOW, "--out", out, "--seed", "2", "--force"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(seedOf(out)).toBe(2);
    expect(existsSync(stage)).toBe(false);
    expect(existsSync(join(out, JOURNAL))).toBe(false);
    // the same bytes as a run into an empty folder with those settings
    const fresh = join(tmp, "fresh");
    expect((await run([...SLOW, "--out", fresh, "--seed", "2"])).code).toBe(0);
    expect(visible(out)).toEqual(visible(fresh));
  }, 240_000);

  it("a swap stopped half-way is finished by the next run", async () => {
    const out = join(tmp, "half");
    const args = ["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet"];
    expect((await run([...args, "--seed", "1"])).code).toBe(0);
    // the new dataset, complete in the staging folder, as a forced run leaves it before its swap
    expect((await run([...args, "--seed", "2", "--out", join(out, STAGE)])).code).toBe(0);
    const want = visible(join(out, STAGE));
    const oldFiles = [...ownedHashes(out)].sort();
    const newFiles = [...ownedHashes(join(out, STAGE))].sort();
    const entry = ([path, sha256]: [string, string]) => ({ path, sha256 });
    writeFileSync(join(out, JOURNAL), JSON.stringify({ generator: "pddl2prm", old: oldFiles.map(entry), new: newFiles.map(entry), drop: [] }));
    // stopped after a third of the new files were renamed over the old ones (their folders were made before the journal)
    for (const [rel] of newFiles.slice(0, newFiles.length / 3)) {
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      renameSync(join(out, STAGE, rel), join(out, rel));
    }
    for (const [rel] of newFiles) mkdirSync(dirname(join(out, rel)), { recursive: true });
    const r = await run([...args, "--seed", "2", "--force"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(visible(out)).toEqual(want.filter((l) => !l.startsWith(".pddl2prm")));
    expect(snapshot(out).filter((l) => l.startsWith(STAGE) || l.startsWith(JOURNAL))).toEqual([]);
  }, 60_000);
});

describe("files pddl2prm did not write are never touched", () => {
  const args = (out: string, seed: number, force = false) => ["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet", "--seed", String(seed), ...(force ? ["--force"] : [])];

  it("a user's config.json: refused with and without --force, no advice to use --force, the file intact", async () => {
    const out = join(tmp, "their-config");
    mkdirSync(out);
    writeFileSync(join(out, "config.json"), '{ "name": "my project" }\n');
    for (const force of [false, true]) {
      const r = await run(args(out, 1, force));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/config\.json.*does not replace a file it did not write/);
      expect(r.stderr).not.toMatch(/--force/);
      expect(readdirSync(out)).toEqual(["config.json"]);
      expect(readFileSync(join(out, "config.json"), "utf8")).toBe('{ "name": "my project" }\n');
    }
  });

  it("--force keeps a user's README.md, stats.csv, plots and PDDL beside the dataset; replaces only its own files", async () => {
    const out = join(tmp, "beside");
    expect((await run(args(out, 1))).code).toBe(0);
    // the user's files, some with names like the dataset's
    writeFileSync(join(out, "notes.txt"), "mine");
    writeFileSync(join(out, "pddl", "mine.pddl"), "(mine)");
    writeFileSync(join(out, "plots", "mine.svg"), "<svg/>");
    writeFileSync(join(out, "README.md"), "# my own readme\n"); // replaces the card: now the user's
    writeFileSync(join(out, "stats.csv"), "a,b\n1,2\n");
    const r = await run(args(out, 2, true));
    // said, not claimed written (issue 50)
    expect(r.stderr).toMatch(/^pddl2prm: warning: kept .*README\.md, .*stats\.csv \(not pddl2prm's.*run `pddl2prm merge/);
    expect(r.code).toBe(0);
    expect(seedOf(out)).toBe(2);
    expect(readFileSync(join(out, "notes.txt"), "utf8")).toBe("mine");
    expect(readFileSync(join(out, "pddl", "mine.pddl"), "utf8")).toBe("(mine)");
    expect(readFileSync(join(out, "plots", "mine.svg"), "utf8")).toBe("<svg/>");
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe("# my own readme\n");
    expect(readFileSync(join(out, "stats.csv"), "utf8")).toBe("a,b\n1,2\n");
    expect(existsSync(join(out, STAGE))).toBe(false);
  });

  it("--force refuses to replace a shard-named file that is not the dataset's: the old dataset and the file intact", async () => {
    const out = join(tmp, "their-shard");
    expect((await run(args(out, 1))).code).toBe(0);
    // a shard name the new settings write and the old records do not list
    const name = "data/train-00000-of-00001.jsonl.gz";
    writeFileSync(join(out, name), "user data");
    const before = visible(out);
    const r = await run(args(out, 2, true).concat(["--gzip"]));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/train-00000-of-00001\.jsonl\.gz is not a file pddl2prm wrote/);
    expect(visible(out)).toEqual(before);
  });

  it("without --force, a folder holding only data/ with a user's file is not taken over", async () => {
    const out = join(tmp, "only-data");
    mkdirSync(join(out, "data"), { recursive: true });
    writeFileSync(join(out, "data", "train-00000-of-00001.jsonl"), '{"mine": true}\n');
    const r = await run(args(out, 1));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a pddl2prm dataset folder \(it holds data\/train-00000-of-00001\.jsonl\)/);
    expect(readFileSync(join(out, "data", "train-00000-of-00001.jsonl"), "utf8")).toBe('{"mine": true}\n');
    expect(readdirSync(out)).toEqual(["data"]);
  });
});

describe("a lock from before a restart", () => {
  const plant = (out: string, pid: number, started: string) => {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, ".pddl2prm-lock-00000"), JSON.stringify({ pid, host: hostname(), rank: 0, started }) + "\n");
  };

  it("naming this very pid (a container restart) is stale; one this process holds is not", async () => {
    const out = join(tmp, "restart");
    plant(out, process.pid, "2020-01-01T00:00:00.000Z");
    const lock = await acquireLock(out, 0);
    await expect(acquireLock(out, 0)).rejects.toThrow(/being written by another pddl2prm run/);
    lock.release();
  });

  it("naming a live pid that started after the lock was taken (the pid reused) is stale; the lock of a live holder is not", async () => {
    const out = join(tmp, "reused");
    plant(out, process.ppid, "2000-01-01T00:00:00.000Z");
    (await acquireLock(out, 0)).release();
    plant(out, process.ppid, new Date().toISOString());
    await expect(acquireLock(out, 0)).rejects.toThrow(/being written by another pddl2prm run/);
  });
});

describe("folder shapes: one line, exit 1 or 2, never a stack trace (finding 8)", () => {
  const gen = (out: string, ...more: string[]) => ["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet", ...more];
  const oneLine = (r: { code: number | null; stderr: string }, code: number, re: RegExp) => {
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(re);
    expect(r.stderr).not.toMatch(/internal error|    at /);
  };

  it("data/ or completions/ a file, config.json a folder, --out under a file, --out ''", async () => {
    const a = join(tmp, "shape-data");
    expect((await run(gen(a))).code).toBe(0);
    rmSync(join(a, "data"), { recursive: true });
    writeFileSync(join(a, "data"), "x");
    oneLine(await run(gen(a)), 1, /data: is a file where pddl2prm keeps its data folder/);
    const b = join(tmp, "shape-completions");
    expect((await run(gen(b))).code).toBe(0);
    rmSync(join(b, "completions"), { recursive: true });
    writeFileSync(join(b, "completions"), "x");
    oneLine(await run(gen(b, "--seed", "3", "--force")), 1, /completions: is a file where pddl2prm keeps its completions folder/);
    const c = join(tmp, "shape-config");
    mkdirSync(join(c, "config.json"), { recursive: true });
    oneLine(await run(gen(c, "--force")), 1, /config\.json: cannot read .*EISDIR.*does not replace a file it did not write/);
    const f = join(tmp, "shape-file");
    writeFileSync(f, "x");
    oneLine(await run(gen(join(f, "sub"))), 1, /--out .*shape-file\/sub: cannot create the folder \(ENOTDIR\)/);
    oneLine(await run(gen("")), 2, /--out must name a folder/);
  });

  it("templates init --out: a folder, a missing parent, a file in place of a folder", async () => {
    const dom = join(FIX, "domain_p01.pddl");
    const dir = join(tmp, "tpl-dir");
    mkdirSync(dir, { recursive: true });
    for (const force of [[], ["--force"]]) oneLine(await run(["templates", "init", "--domain-file", dom, "--out", dir, ...force]), 1, /is a folder; name the file to write/);
    oneLine(await run(["templates", "init", "--domain-file", dom, "--out", join(tmp, "no-such", "nl.json")]), 1, /cannot write the file \(its folder does not exist\)/);
    const file = join(tmp, "tpl-file");
    writeFileSync(file, "x");
    oneLine(await run(["templates", "init", "--domain-file", dom, "--out", join(file, "nl.json")]), 1, /cannot write the file \(a part of its path is a file, not a folder\)/);
    expect(existsSync(join(tmp, "no-such"))).toBe(false);
  });

  it("a corrupt completion record: the advice given works (remove it, run again)", async () => {
    const out = join(tmp, "corrupt-marker");
    expect((await run(gen(out))).code).toBe(0);
    const want = visible(out);
    writeFileSync(join(out, "completions", "00000"), "{ not json");
    const r = await run(gen(out));
    oneLine(r, 1, /completions\/00000: cannot read the pddl2prm completion record \(not JSON\); remove it and run again/);
    rmSync(join(out, "completions", "00000"));
    const again = await run(gen(out));
    expect(again.code).toBe(0);
    expect(visible(out)).toEqual(want);
  });

  it("stats with a missing shard: a warning naming it, exit 1", async () => {
    const out = join(tmp, "stats-missing");
    expect((await run(gen(out))).code).toBe(0);
    const shard = readdirSync(join(out, "data")).find((n) => n.startsWith("test-"))!;
    rmSync(join(out, "data", shard));
    oneLine(await run(["stats", out]), 1, new RegExp(`data/${shard.replace(/\./g, "\\.")}: missing`));
  });
});

describe("smaller ones (finding 10)", () => {
  it("two quick Ctrl-C's: exit 130, no temporary shard, lock or config.json left", async () => {
    const out = join(tmp, "two-sigints");
    const child = spawn(process.execPath, [CLI, ...SLOW, "--out", out], { cwd: tmp, stdio: "ignore" });
    const closed = new Promise<string>((res) => child.on("close", (code, signal) => res(code !== null ? String(code) : String(signal))));
    expect(await waitFor(() => existsSync(join(out, "data")) && readdirSync(join(out, "data")).some((n) => n.includes(".tmp-")))).toBe(true);
    child.kill("SIGINT");
    await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    // 130, or the second signal itself where it came while the cleaned-up process was exiting
    expect(["130", "SIGINT"]).toContain(await closed);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it("--out under /proc (Linux): one line at once, not a spin", async () => {
    const t0 = Date.now();
    const r = await run(["generate", "--domain", "ferry", "--count", "2", "--out", "/proc/pddl2prm-x", "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pddl2prm: error: --out \/proc\/pddl2prm-x: cannot create the folder \(ENOENT\)\n$/);
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 60_000);

  it("12 workers: no listener-leak warning on stderr", async () => {
    const r = await run(["generate", "--domain", "ferry", "--count", "14", "--workers", "12", "--max-memory", "2048", "--out", join(tmp, "many-workers"), "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 120_000);

  it("audit of a dataset whose ranks are not all complete: an error, not a pass", async () => {
    const out = join(tmp, "incomplete");
    expect((await run(["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet", "--world", "2", "--rank", "0"])).code).toBe(0);
    const r = await run(["audit", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ranks not complete yet: 1 \(of 2\)/);
    expect(r.stdout).not.toMatch(/audit: pass/);
  });
});

describe("completion records are read by their schema, not trusted beyond it", () => {
  it("a shard path or problem id leaving the folder is an invalid record: one line, nothing read or replaced outside", async () => {
    const out = join(tmp, "record-paths");
    const gen = ["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet"];
    expect((await run(gen)).code).toBe(0);
    const marker = join(out, "completions", "00000");
    const outside = join(tmp, "outside.txt");
    writeFileSync(outside, "keep");
    let seed = 2;
    for (const edit of [(t: string) => t.replace(/"path":"data\/train-[^"]*"/, `"path":"../outside.txt"`), (t: string) => t.replace(/"problem":"p01"/, `"problem":"../../outside"`)]) {
      const good = readFileSync(marker, "utf8");
      writeFileSync(marker, edit(good));
      const r = await run(["stats", out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/completions\/00000: not a valid pddl2prm completion record/);
      // an edited record is not provably pddl2prm's: --force does not replace it either
      const f = await run([...gen, "--seed", String(seed), "--force"]);
      expect(f.code).toBe(1);
      expect(f.stderr).toMatch(/completions\/00000 is not a file pddl2prm wrote/);
      expect(readFileSync(outside, "utf8")).toBe("keep");
      writeFileSync(marker, good); // put back: the waiting dataset is swapped in
      expect((await run([...gen, "--seed", String(seed++), "--force"])).code).toBe(0);
      expect(readFileSync(outside, "utf8")).toBe("keep");
    }
  });
});
