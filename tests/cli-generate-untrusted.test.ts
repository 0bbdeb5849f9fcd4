/**
 * Every file in the output folder is untrusted input (issue 50): the swap journal, the ledger
 * and the staging folder a dataset downloaded from someone else may carry, and names a user's
 * files may clash with. Nothing outside the folder is ever read through, moved, replaced or
 * deleted; a user's file or folder under a name pddl2prm reserves is refused, never deleted.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, cliRunner, ROOT } from "./cli-run.js";

const FIX = join(ROOT, "tests", "fixtures", "conformance", "per-problem-domains");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-untrusted-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = cliRunner(tmp);
const STAGE = ".pddl2prm-next";
const JOURNAL = ".pddl2prm-swap.json";
const LEDGER = ".pddl2prm-files.json";

const gen = (out: string, seed: number, force = false) => ["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet", "--seed", String(seed), ...(force ? ["--force"] : [])];
const sha = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");

/** Every file below `dir` with a hash of its bytes, sorted (folders too); links are not followed. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort().map((rel) => {
    const p = join(dir, rel);
    return statSync(p).isDirectory() ? `${rel}/` : `${rel} ${sha(p).slice(0, 12)}`;
  });
}
const visible = (dir: string): string[] => snapshot(dir).filter((l) => !l.startsWith(".pddl2prm"));
const seedOf = (out: string): number => JSON.parse(readFileSync(join(out, "config.json"), "utf8")).config.seed as number;
const oneLine = (r: { code: number | null; stderr: string }, re: RegExp): void => {
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(re);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/internal error|    at /);
};

/** A fresh folder under tmp with a complete dataset of `seed`, and a sibling folder "beside" it. */
async function dataset(name: string, seed = 1): Promise<{ out: string; beside: string }> {
  const base = join(tmp, name);
  mkdirSync(base, { recursive: true });
  const out = join(base, "ds");
  const beside = join(base, "beside");
  mkdirSync(beside);
  writeFileSync(join(beside, "victim.txt"), "keep me");
  expect((await run(gen(out, seed))).code).toBe(0);
  return { out, beside };
}

let fresh2: string[] | null = null;
/** The visible files of a dataset of seed 2 made alone. */
async function freshSeed2(): Promise<string[]> {
  if (fresh2 === null) {
    const f = join(tmp, "fresh2");
    expect((await run(gen(f, 2))).code).toBe(0);
    fresh2 = visible(f);
  }
  return fresh2;
}

describe("names pddl2prm once used or reserves", () => {
  it("a user's folder named .pddl2prm-old inside --out survives --force", async () => {
    const { out } = await dataset("old-folder");
    mkdirSync(join(out, ".pddl2prm-old", "mine"), { recursive: true });
    writeFileSync(join(out, ".pddl2prm-old", "mine", "notes.txt"), "mine");
    const r = await run(gen(out, 2, true));
    expect(r.code).toBe(0);
    expect(seedOf(out)).toBe(2);
    expect(readFileSync(join(out, ".pddl2prm-old", "mine", "notes.txt"), "utf8")).toBe("mine");
  });

  it(".pddl2prm-old as a link to a folder outside: --force writes nothing there", async () => {
    const { out, beside } = await dataset("old-link");
    symlinkSync(beside, join(out, ".pddl2prm-old"));
    const before = snapshot(beside);
    await run(gen(out, 2, true));
    expect(snapshot(beside)).toEqual(before);
  });

  it("a user's folder named .pddl2prm-next: refused, never written into or removed", async () => {
    const { out } = await dataset("stage-folder");
    mkdirSync(join(out, STAGE));
    writeFileSync(join(out, STAGE, "notes.txt"), "mine");
    const before = snapshot(out);
    oneLine(await run(gen(out, 2, true)), /\.pddl2prm-next: holds notes\.txt, which no pddl2prm run puts there; pddl2prm reserves this name/);
    expect(snapshot(out)).toEqual(before);
  });

  it("a user's file named like the ledger: in a new folder refused, in a dataset folder never overwritten", async () => {
    const a = join(tmp, "ledger-new");
    mkdirSync(a);
    writeFileSync(join(a, LEDGER), "my notes\n");
    oneLine(await run(gen(a, 1)), /not a pddl2prm dataset folder \(it holds \.pddl2prm-files\.json\)/);
    expect(readFileSync(join(a, LEDGER), "utf8")).toBe("my notes\n");
    const { out } = await dataset("ledger-clash");
    writeFileSync(join(out, LEDGER), "my notes\n");
    oneLine(await run(gen(out, 1)), /\.pddl2prm-files\.json: is not a ledger pddl2prm wrote/);
    expect(readFileSync(join(out, LEDGER), "utf8")).toBe("my notes\n");
  });
});

describe("a crafted swap journal", () => {
  it("(the format of the version before) naming a user folder and a path beside the folder: nothing moved, even without --force", async () => {
    const { out, beside } = await dataset("journal-old-format");
    mkdirSync(join(out, "mydir"));
    writeFileSync(join(out, "mydir", "thesis.tex"), "years of work");
    writeFileSync(join(out, "beside-payload.txt"), "overwritten!");
    writeFileSync(join(out, JOURNAL), JSON.stringify({ old: ["mydir"], new: ["../beside/victim.txt"] }));
    // the journal's "new" file, relative to the staging folder, is the payload in the folder
    mkdirSync(join(out, "beside"));
    writeFileSync(join(out, "beside", "victim.txt"), "overwritten!");
    const r = await run(gen(out, 1));
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/    at /);
    expect(readFileSync(join(out, "mydir", "thesis.tex"), "utf8")).toBe("years of work");
    expect(readFileSync(join(beside, "victim.txt"), "utf8")).toBe("keep me");
  });

  it("(this version's format) with a path leaving the folder, through a link, or a file not the old dataset's: refused before anything moves", async () => {
    const { out, beside } = await dataset("journal-new-format");
    mkdirSync(join(out, "mydir"));
    writeFileSync(join(out, "mydir", "thesis.tex"), "years of work");
    symlinkSync(beside, join(out, "lnk"));
    mkdirSync(join(out, STAGE, "lnk"), { recursive: true });
    writeFileSync(join(out, STAGE, "lnk", "victim.txt"), "overwritten!");
    writeFileSync(join(out, STAGE, "payload"), "overwritten!");
    const h = sha(join(out, STAGE, "payload"));
    const journals = [
      { old: [], new: [{ path: "../beside/victim.txt", sha256: h }] },
      { old: [], new: [{ path: "lnk/victim.txt", sha256: h }] },
      { old: [{ path: "lnk/victim.txt", sha256: sha(join(beside, "victim.txt")) }], new: [] },
      { old: [{ path: "mydir/thesis.tex", sha256: "0".repeat(64) }], new: [{ path: "mydir/thesis.tex", sha256: h }] },
      { old: [{ path: "mydir", sha256: "0".repeat(64) }], new: [] },
    ];
    for (const j of journals) {
      writeFileSync(join(out, JOURNAL), JSON.stringify({ generator: "pddl2prm", drop: [], ...j }));
      const before = snapshot(out);
      const r = await run(gen(out, 1));
      expect(r.stderr).not.toMatch(/    at /);
      expect(readFileSync(join(out, "mydir", "thesis.tex"), "utf8")).toBe("years of work");
      expect(readFileSync(join(beside, "victim.txt"), "utf8")).toBe("keep me");
      if (r.code !== 0) {
        expect(snapshot(out)).toEqual(before);
      }
      rmSync(join(out, JOURNAL), { force: true });
    }
  });

  it("a dangling journal link: --force is an error, not 'complete' with nothing swapped", async () => {
    const { out } = await dataset("journal-dangling");
    symlinkSync(join(tmp, "no-such-file"), join(out, JOURNAL));
    const r = await run(gen(out, 2, true));
    oneLine(r, /\.pddl2prm-swap\.json: is a symbolic link/);
    expect(seedOf(out)).toBe(1);
  });

  it("a 0-byte journal (a kill while an older version wrote it) blocks nothing: the next run swaps", async () => {
    const { out } = await dataset("journal-empty");
    writeFileSync(join(out, JOURNAL), "");
    const r = await run(gen(out, 2, true));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(seedOf(out)).toBe(2);
    expect(visible(out)).toEqual(await freshSeed2());
    expect(existsSync(join(out, JOURNAL))).toBe(false);
  });

  it("a journal that does not parse: one line whose advice works", async () => {
    const { out } = await dataset("journal-garbage");
    writeFileSync(join(out, JOURNAL), "{ not json");
    const r = await run(gen(out, 2, true));
    oneLine(r, /\.pddl2prm-swap\.json: not a swap journal pddl2prm wrote.*move it away and run again/);
    rmSync(join(out, JOURNAL));
    const again = await run(gen(out, 2, true));
    expect(again.code).toBe(0);
    expect(visible(out)).toEqual(await freshSeed2());
  });
});

describe("the ledger", () => {
  it("an entry through a linked folder: --force deletes nothing outside the folder", async () => {
    const { out, beside } = await dataset("ledger-link");
    symlinkSync(beside, join(out, "lnk"));
    const ledger = JSON.parse(readFileSync(join(out, LEDGER), "utf8")) as { files: { path: string; bytes: number; sha256: string }[] };
    ledger.files.push({ path: "lnk/victim.txt", bytes: 7, sha256: sha(join(beside, "victim.txt")) });
    writeFileSync(join(out, LEDGER), JSON.stringify(ledger));
    await run(gen(out, 2, true));
    expect(readFileSync(join(beside, "victim.txt"), "utf8")).toBe("keep me");
  });

  it("a same-size edit of a shard is the user's: --force neither deletes nor replaces it", async () => {
    const { out } = await dataset("shard-edit");
    const shard = join(out, "data", readdirSync(join(out, "data")).find((n) => n.startsWith("train-"))!);
    const text = readFileSync(shard, "utf8");
    const edited = text.replace(/"problem":"p0(\d)"/, (_m, d: string) => `"problem":"q0${d}"`);
    expect(edited.length).toBe(text.length);
    expect(edited).not.toBe(text);
    writeFileSync(shard, edited);
    // without a ledger too (the completion record's sha256, not the size, proves a shard)
    for (const dropLedger of [false, true]) {
      if (dropLedger) rmSync(join(out, LEDGER));
      const r = await run(gen(out, 2, true));
      oneLine(r, /train-00000-of-00001\.jsonl is not a file pddl2prm wrote/);
      expect(readFileSync(shard, "utf8")).toBe(edited);
    }
  });

  it("--force rewrites the card when the ledger is gone (the card proven by its manifest); a user-edited card is kept and said so", async () => {
    const { out } = await dataset("card-noledger");
    rmSync(join(out, LEDGER));
    const r = await run(gen(out, 2, true).filter((a) => a !== "--quiet"));
    expect(r.code).toBe(0);
    expect(visible(out)).toEqual(await freshSeed2());
    const b = (await dataset("card-edited")).out;
    writeFileSync(join(b, "README.md"), readFileSync(join(b, "README.md"), "utf8") + "\nmy note\n");
    const e = await run(gen(b, 2, true).filter((a) => a !== "--quiet"));
    expect(e.code).toBe(0);
    expect(e.stdout).not.toMatch(/README\.md/);
    expect(e.stderr).toMatch(/warning: kept .*README\.md \(not pddl2prm's: edited, or not in its ledger\)/);
    expect(readFileSync(join(b, "README.md"), "utf8")).toMatch(/my note/);
  });
});

describe("--force ranks of one run", () => {
  it("started together, they do not refuse each other (DESIGN §9: the ranks write side by side); the result is a run done alone's", async () => {
    const { out } = await dataset("ranks-together");
    const ranks = (dir: string, force: boolean) => [0, 1].map((r) => run([...gen(dir, 2, force), "--world", "2", "--rank", String(r)]));
    const rs = await Promise.all(ranks(out, true));
    for (const r of rs) expect(r.stderr).not.toMatch(/being written by other runs/);
    for (const r of rs) expect(r.code).toBe(0);
    const alone = join(tmp, "ranks-alone");
    for (const r of await Promise.all(ranks(alone, false))) expect(r.code).toBe(0);
    expect(visible(out)).toEqual(visible(alone));
  });
});

/** strace's fault injection, where it works here (ptrace may be denied in a container). */
const strace = spawnSync("strace", ["-f", "-o", "/dev/null", "true"]).status === 0;

/** Run the CLI under strace, injecting `inject` (e.g. "rename:signal=SIGKILL:when=3"); exit code and stderr. */
function injected(args: string[], inject: string): { code: number | null; signal: string | null; stderr: string } {
  // (the injected syscalls must be traced: `trace=none` would switch the injection off)
  const r = spawnSync("strace", ["-f", "-qq", "-o", "/dev/null", "-e", `inject=${inject}`, process.execPath, CLI, ...args], { cwd: tmp, encoding: "utf8" });
  // (killed by SIGKILL, strace ends itself by the same signal or exits 137)
  return { code: r.signal === "SIGKILL" ? 137 : r.status, signal: r.signal, stderr: r.stderr };
}

/**
 * The calls of `syscalls` a run makes (strace's own log), each as the injection that stops the
 * run at it: `<syscall>:...:when=<its count among that syscall's calls>` (strace counts per syscall).
 */
function traceCalls(args: string[], syscalls: string): { call: string; at: string }[] {
  const log = join(tmp, `trace-${process.pid}-${Date.now()}.log`);
  spawnSync("strace", ["-f", "-qq", "-o", log, "-e", `trace=${syscalls}`, process.execPath, CLI, ...args], { cwd: tmp });
  const names = syscalls.split(",");
  const seen = new Map<string, number>();
  const out: { call: string; at: string }[] = [];
  for (const l of readFileSync(log, "utf8").split("\n")) {
    const m = /^\d+\s+(\w+)\((.*)$/.exec(l);
    if (m === null || !names.includes(m[1]!)) continue;
    seen.set(m[1]!, (seen.get(m[1]!) ?? 0) + 1);
    out.push({ call: `${m[1]}(${m[2]!.slice(0, 120)}`, at: `${m[1]}:when=${seen.get(m[1]!)}` });
  }
  rmSync(log);
  return out;
}
const withSignal = (at: string, sig: string): string => at.replace(":", `:signal=${sig}:`);

/** A copy of the dataset folder `from` at `to`. */
const copy = (from: string, to: string): void => cpSync(from, to, { recursive: true, verbatimSymlinks: true });

describe.runIf(strace)("kills and signals in the merge and the swap (strace fault injection)", () => {
  const SWEEP = "rename,link,unlink,rmdir,mkdir";

  it("SIGKILL at every rename, link, unlink, rmdir and mkdir of the merge and swap of --force: the re-run ends with exactly the bytes of a run done alone, nothing left over", async () => {
    const want = await freshSeed2();
    const base = await dataset("kill-merge");
    const template = join(tmp, "kill-merge-template");
    copy(base.out, template);
    const calls = traceCalls(gen(base.out, 2, true), SWEEP);
    expect(seedOf(base.out)).toBe(2); // (the traced run itself completed)
    // from the merge on: its first write is the ledger's or the manifest's
    const first = calls.findIndex((c) => /\.pddl2prm-next\/(manifest\.json|\.pddl2prm-files\.json)/.test(c.call));
    expect(first).toBeGreaterThan(0);
    for (let n = first; n < calls.length; n++) {
      const out = join(tmp, `kill-merge-${n}`, "ds");
      copy(template, out);
      const k = injected(gen(out, 2, true), withSignal(calls[n]!.at, "SIGKILL"));
      expect(k.code, calls[n]!.call).toBe(137); // (strace exits as its tracee did)
      const r = await run(gen(out, 2, true));
      expect(r.stderr, calls[n]!.call).toBe("");
      expect(r.code, calls[n]!.call).toBe(0);
      expect(visible(out), calls[n]!.call).toEqual(want);
      expect(snapshot(out).filter((l) => /\.tmp-|^\.pddl2prm-(next|swap|lock)/.test(l)), calls[n]!.call).toEqual([]);
      rmSync(join(tmp, `kill-merge-${n}`), { recursive: true, force: true });
    }
  }, 900_000);

  it("SIGKILL between the card and the ledger of a plain run: nothing left out of the ledger, no temporary ledger; --force then replaces the card", async () => {
    const want = await freshSeed2();
    const probe = join(tmp, "card-ledger-probe");
    const calls = traceCalls(gen(probe, 1), "rename");
    const card = calls.findIndex((c) => /README\.md\.tmp-/.test(c.call));
    expect(card).toBeGreaterThan(0);
    for (let n = card - 3; n < calls.length; n++) {
      const out = join(tmp, `card-ledger-${n}`);
      expect(injected(gen(out, 1), withSignal(calls[n]!.at, "SIGKILL")).code, calls[n]!.call).toBe(137);
      const again = await run(gen(out, 1));
      expect(again.code, calls[n]!.call).toBe(0);
      const ledger = JSON.parse(readFileSync(join(out, LEDGER), "utf8")) as { files: { path: string }[] };
      for (const f of ["README.md", "stats.csv", "manifest.json", "plots/categories.svg", "plots/plan-lengths.svg"]) expect(ledger.files.map((e) => e.path), `${calls[n]!.call}: ${f}`).toContain(f);
      expect(snapshot(out).filter((l) => /\.tmp-/.test(l)), calls[n]!.call).toEqual([]);
      const r = await run(gen(out, 2, true));
      expect(r.stderr, calls[n]!.call).toBe("");
      expect(r.code, calls[n]!.call).toBe(0);
      expect(visible(out), calls[n]!.call).toEqual(want);
      rmSync(out, { recursive: true, force: true });
    }
  }, 600_000);

  it("Ctrl-C (SIGINT) at the merge's and the swap's steps: exit 130 with the old dataset as it was, or exit 0 'finished' with the new one; never 'stopped' with the old one replaced", async () => {
    const want = await freshSeed2();
    const base = await dataset("sigint-merge");
    const template = join(tmp, "sigint-template");
    copy(base.out, template);
    const old = visible(template);
    const calls = traceCalls(gen(base.out, 2, true), "rename,link");
    const first = calls.findIndex((c) => /\.pddl2prm-next\/(manifest\.json|\.pddl2prm-files\.json)/.test(c.call));
    for (let n = first; n < calls.length; n++) {
      const out = join(tmp, `sigint-${n}`, "ds");
      copy(template, out);
      const k = injected(gen(out, 2, true), withSignal(calls[n]!.at, "SIGINT"));
      if (seedOf(out) === 2) {
        expect(k.stderr, calls[n]!.call).not.toMatch(/stopped/);
        expect(k.code, calls[n]!.call).toBe(0);
        expect(visible(out), calls[n]!.call).toEqual(want);
        expect(existsSync(join(out, JOURNAL))).toBe(false);
      } else {
        expect(k.code, calls[n]!.call).toBe(130);
        expect(k.stderr, calls[n]!.call).toMatch(/SIGINT: stopped/);
        expect(visible(out), calls[n]!.call).toEqual(old);
      }
      // the next run completes either way
      const r = await run(gen(out, 2, true));
      expect(r.code, calls[n]!.call).toBe(0);
      expect(visible(out), calls[n]!.call).toEqual(want);
      rmSync(join(tmp, `sigint-${n}`), { recursive: true, force: true });
    }
  }, 600_000);

  it("double Ctrl-C in a forced merge leaves nothing that blocks the next run", async () => {
    const want = await freshSeed2();
    const base = await dataset("double-sigint");
    const template = join(tmp, "double-template");
    copy(base.out, template);
    const calls = traceCalls(gen(base.out, 2, true), "rename");
    const first = calls.findIndex((c) => /\.pddl2prm-next\/(manifest\.json|\.pddl2prm-files\.json)/.test(c.call));
    for (let n = Math.max(0, first - 3); n < first + 4; n++) {
      const out = join(tmp, `double-${n}`, "ds");
      copy(template, out);
      const when = Number(calls[n]!.at.split("=")[1]);
      injected(gen(out, 2, true), `rename:signal=SIGINT:when=${when}..${when + 1}`);
      const r = await run(gen(out, 2, true));
      expect(r.stderr, calls[n]!.call).toBe("");
      expect(r.code, calls[n]!.call).toBe(0);
      expect(visible(out), calls[n]!.call).toEqual(want);
      rmSync(join(tmp, `double-${n}`), { recursive: true, force: true });
    }
  }, 600_000);
});
