/**
 * `generate` and its output folder: one writer per folder and rank (advisory lock), no links
 * followed inside it, signals and killed runs leave no temporary files, templates checked before
 * anything is written, and no failed run leaves anything behind.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliRunner, ROOT } from "./cli-run.js";
import { ferryTemplates } from "./ferry-templates.js";

const FIX = join(ROOT, "tests", "fixtures", "conformance", "per-problem-domains");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-safety-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = cliRunner(tmp);

function start(args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<{ code: number | null; signal: string | null; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: tmp, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>((res) =>
    child.on("close", (code, signal) => res({ code, signal, stderr })),
  );
  return { child, done };
}

async function waitFor(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every file and folder below `dir` with a hash of each file's bytes, sorted. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort().map((rel) => {
    const p = join(dir, rel);
    return statSync(p).isDirectory() ? `${rel}/` : `${rel} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 12)}`;
  });
}

const temps = (dir: string): string[] => snapshot(dir).filter((l) => /\.tmp-\d+|\.pddl2prm-lock/.test(l));
const lockFile = (out: string, rank = 0) => join(out, `.pddl2prm-lock-${String(rank).padStart(5, "0")}`);

/** A run that takes a few seconds: 100 ferry problems on one worker. */
const SLOW = ["--domain", "ferry", "--workers", "1", "--quiet"];

describe("one writer per output folder", () => {
  it("two concurrent runs on one folder: one proceeds, the other gets a clear error", async () => {
    const out = join(tmp, "two");
    const a = start(["generate", ...SLOW, "--out", out]);
    await waitFor(() => existsSync(lockFile(out)), "the first run's lock");
    a.child.kill("SIGSTOP"); // holds the lock for as long as the second run needs
    try {
      const b = await run(["generate", ...SLOW, "--out", out]);
      expect(b.code).toBe(1);
      expect(b.stderr).toBe(
        `pddl2prm: error: ${out} is being written by another pddl2prm run: pid ${a.child.pid} on this machine, since ${JSON.parse(readFileSync(lockFile(out), "utf8")).started}; wait for it to finish, or use another --out\n`,
      );
    } finally {
      a.child.kill("SIGCONT");
    }
    const ra = await a.done;
    expect(ra.stderr).toBe("");
    expect(ra.code).toBe(0);
    expect(existsSync(join(out, "manifest.json"))).toBe(true);
    expect(temps(out)).toEqual([]);
  });

  it("a stale lock (its process gone) is taken over", async () => {
    const out = join(tmp, "stale");
    mkdirSync(out);
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!; // a pid that has exited
    writeFileSync(lockFile(out), JSON.stringify({ pid: dead, host: hostname(), rank: 0, started: "2020-01-01T00:00:00.000Z" }));
    const r = await run(["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(temps(out)).toEqual([]);
  });

  it("a lock from another host is respected while its holder's heartbeat moves it, taken over when it stops", async () => {
    // heartbeat 100 ms: a lock untouched for 300 ms is stale
    const env = { PDDL2PRM_LOCK_HEARTBEAT_MS: "100" };
    const args = ["generate", "--problems", FIX, "--workers", "1", "--quiet"];
    const other = join(tmp, "other-host");
    mkdirSync(other);
    const lock = { pid: 1, host: "elsewhere.example", rank: 0, started: "2020-01-01T00:00:00.000Z" };
    writeFileSync(lockFile(other), JSON.stringify(lock));
    const beat = setInterval(() => utimesSync(lockFile(other), new Date(), new Date()), 30);
    try {
      const r = await start([...args, "--out", other], env).done;
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`pddl2prm: error: ${other} is being written by another pddl2prm run: pid 1 on host elsewhere.example, since ${lock.started}; wait for it to finish, or use another --out\n`);
    } finally {
      clearInterval(beat);
    }
    expect(readdirSync(other)).toEqual([".pddl2prm-lock-00000"]);
    // the holder is gone (a pod killed and rescheduled elsewhere): its lock stops moving
    const r = await start([...args, "--out", other], env).done;
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(temps(other)).toEqual([]);
  });

  it("the ranks of one multi-machine run still write side by side", async () => {
    const out = join(tmp, "ranks");
    const args = ["generate", "--domain", "ferry", "--world", "2", "--workers", "1", "--quiet", "--out", out];
    const r0 = start([...args, "--rank", "0"]);
    const r1 = start([...args, "--rank", "1"]);
    const [a, b] = await Promise.all([r0.done, r1.done]);
    expect(a.stderr + b.stderr).toBe("");
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(readdirSync(join(out, "completions")).sort()).toEqual(["00000", "00001"]);
    expect((await run(["merge", out])).code).toBe(0);
    expect(temps(out)).toEqual([]);
  });
});

describe("links inside the output folder are refused", () => {
  it("data/, a shard, pddl/<domain> or plots/ as a link: exit 1 naming it, nothing written through it", async () => {
    const elsewhere = join(tmp, "elsewhere");
    mkdirSync(elsewhere);
    for (const [rel, isDir] of [["data", true], ["pddl/ferry-costs", true], ["plots", true], ["config.json", false]] as const) {
      const out = join(tmp, `link-${rel.replace(/\W/g, "-")}`);
      mkdirSync(join(out, rel, ".."), { recursive: true });
      const target = join(elsewhere, rel.replace(/\W/g, "-"));
      if (isDir) mkdirSync(target);
      else writeFileSync(target, "{}");
      symlinkSync(target, join(out, rel));
      const before = snapshot(out);
      const r = await run(["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`pddl2prm: error: ${join(out, rel)}: is a symbolic link; pddl2prm does not follow links inside its output folder (remove it, or use another --out)\n`);
      expect(snapshot(out)).toEqual(before);
    }
    expect(snapshot(elsewhere)).toEqual(["config-json 44136fa355b3", "data/", "pddl-ferry-costs/", "plots/"]);
    // --out itself may be a link (to a scratch disk, say)
    const real = join(tmp, "real-out");
    mkdirSync(real);
    symlinkSync(real, join(tmp, "out-link"));
    expect((await run(["generate", "--problems", FIX, "--out", join(tmp, "out-link"), "--workers", "1", "--quiet"])).code).toBe(0);
    expect(existsSync(join(real, "manifest.json"))).toBe(true);
  });
});

describe("signals and killed runs leave no temporary files", () => {
  for (const [sig, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    it(`${sig} stops the run, removes its temporary files and what it created, exit ${code}`, async () => {
      const out = join(tmp, `sig-${sig}`);
      const a = start(["generate", ...SLOW, "--out", out]);
      await waitFor(() => existsSync(join(out, "data")) && readdirSync(join(out, "data")).some((n) => n.includes(".tmp-")), "a temporary shard");
      a.child.kill(sig);
      const r = await a.done;
      expect(r.code).toBe(code);
      expect(r.stderr).toBe(`pddl2prm: ${sig}: stopped; temporary files removed\n`);
      expect(existsSync(out)).toBe(false);
    });
  }

  it("start-up removes every temporary file a killed run can leave (shards, markers, config, PDDL copies, manifest)", async () => {
    const out = join(tmp, "leftovers");
    const args = ["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet"];
    expect((await run(args)).code).toBe(0);
    const good = snapshot(out);
    const planted = [
      "data/train-00000-of-00001.jsonl.tmp-999999",
      "completions/00000.tmp-999999",
      "config.json.tmp-999999",
      "pddl/ferry-costs/p01.pddl.tmp-999999",
      "manifest.json.tmp-999999",
      "README.md.tmp-999999",
      "stats.csv.tmp-999999",
    ];
    for (const p of planted) writeFileSync(join(out, p), "partial");
    expect((await run(args)).code).toBe(0); // resumes: rank complete
    expect(snapshot(out)).toEqual(good);
  });
});

describe("templates are checked before anything is written, and are part of the dataset's settings", () => {
  const domain = join(FIX, "domain_p01.pddl");
  const problem = join(FIX, "p01.pddl");
  const full = () => ferryTemplates();
  const tpl = (name: string, json: unknown): string => {
    const f = join(tmp, name);
    writeFileSync(f, JSON.stringify(json));
    return f;
  };
  const gen = (templates: string, out: string, ...more: string[]) =>
    run(["generate", "--domain-file", domain, "--problems", problem, "--templates", templates, "--out", out, "--workers", "1", "--quiet", ...more]);

  it("a goal template without {goal} is an error naming the file and the template", async () => {
    const f = tpl("nogoal.json", { ...full(), goal: ["The goal is that {goal}.", "Get it done."] });
    const out = join(tmp, "tpl-nogoal");
    const r = await gen(f, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`pddl2prm: error: ${f}: goal[1]: placeholder {goal} is missing\n`);
    expect(existsSync(out)).toBe(false);
  });

  it("a missing action template is an error unless --generic-fallback", async () => {
    const t = full();
    delete t.actions.debark;
    const f = tpl("nodebark.json", t);
    const r = await gen(f, join(tmp, "tpl-nodebark"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nodebark\.json: actions: no template for action 'debark' \(add one, or pass --generic-fallback/);
    expect((await gen(f, join(tmp, "tpl-fallback"), "--generic-fallback")).code).toBe(0);
    expect((await run(["generate", "--problems", FIX, "--generic-fallback"])).code).toBe(2);
  });

  it("other templates (same file name) are other settings: a re-run does not resume with the old text", async () => {
    const f = tpl("ferry.json", full());
    const out = join(tmp, "tpl-hash");
    expect((await gen(f, out)).code).toBe(0);
    expect((await gen(f, out)).code).toBe(0); // same templates: resumes
    tpl("ferry.json", { ...full(), goal: ["Make sure that {goal}."] });
    const again = await gen(f, out);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/holds a dataset made with other settings/);
  });

  it("the published files name inputs by file name and sha256, never by local path", async () => {
    const f = tpl("named.json", full());
    const out = join(tmp, "tpl-names");
    expect((await gen(f, out)).code).toBe(0);
    for (const name of ["manifest.json", "config.json", "README.md"]) {
      const text = readFileSync(join(out, name), "utf8");
      expect(text, name).not.toContain(tmp);
      expect(text, name).not.toContain(ROOT);
    }
    const config = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).config;
    expect(config).toMatchObject({ domain_file: "domain_p01.pddl", templates: "named.json" });
    expect(config.templates_sha256).toBe(createHash("sha256").update(readFileSync(f)).digest("hex"));
  });
});

describe("no failed run leaves anything behind", () => {
  const bad = join(tmp, "fuzz-inputs");
  mkdirSync(bad);
  cpSync(FIX, join(bad, "ok"), { recursive: true });
  const variant = (name: string, file: string, edit: (s: string) => string): string => {
    const dir = join(bad, name);
    cpSync(FIX, dir, { recursive: true });
    writeFileSync(join(dir, file), edit(readFileSync(join(FIX, file), "utf8")));
    return dir;
  };
  // Problems for a built-in domain are parsed by the workers only: this error comes after the
  // run has created its folder, config.json and temporary shards.
  const ferry = join(bad, "ferry");
  mkdirSync(ferry);
  cpSync(join(ROOT, "problems", "ferry", "p0001.pddl"), join(ferry, "p0001.pddl"));
  writeFileSync(join(ferry, "p0002.pddl"), readFileSync(join(ROOT, "problems", "ferry", "p0002.pddl"), "utf8").replace("(:init", "(:init (at-ferry nowhere)"));
  const goalless = join(bad, "goalless.json");
  writeFileSync(goalless, '{ "intro": ["a", "b", "c"], "goal": ["Reach it."], "instruction": ["Go."] }');
  // Each case: the arguments after `generate` (the --out is added), and the exit code.
  const cases: Array<[string, string[], number]> = [
    ["undeclared object in a problem", ["--problems", variant("undeclared", "p02.pddl", (s) => s.replace(/\(:goal/, "(:goal (and (at-ferry zz))"))], 1],
    ["unbalanced parentheses", ["--problems", variant("parens", "p01.pddl", (s) => s.slice(0, -3))], 1],
    ["wrong type in a domain's action", ["--problems", variant("types", "domain_p01.pddl", (s) => s.replace("(car-at ?c ?p) (ferry-at ?p)", "(car-at ?p ?c) (ferry-at ?p)"))], 1],
    ["a goal template without {goal}", ["--domain-file", join(FIX, "domain_p01.pddl"), "--problems", join(FIX, "p01.pddl"), "--templates", goalless], 1],
    ["a missing templates file", ["--domain-file", join(FIX, "domain_p01.pddl"), "--problems", join(FIX, "p01.pddl"), "--templates", join(bad, "none.json")], 1],
    ["no problems", ["--problems", join(bad, "none")], 1],
    ["bad PDDL found by a worker", ["--domain", "ferry", "--problems", ferry], 1],
    ["a bad flag", ["--problems", FIX, "--format", "nope"], 2],
    ["an unknown domain", ["--domain", "nope"], 2],
  ];
  const existing = join(tmp, "fuzz-existing");
  beforeAll(async () => {
    expect((await run(["generate", "--problems", join(bad, "ok"), "--out", existing, "--workers", "1", "--quiet"])).code).toBe(0);
  });
  for (const [what, args, code] of cases) {
    it(what, async () => {
      for (const kind of ["absent", "empty", "a dataset of other settings"]) {
        const out = join(tmp, `fuzz-${what.replace(/\W+/g, "-")}-${kind.replace(/\W+/g, "-")}`);
        if (kind === "empty") {
          mkdirSync(out);
          writeFileSync(join(out, ".keep"), "");
        } else if (kind !== "absent") {
          cpSync(existing, out, { recursive: true });
        }
        const before = snapshot(out);
        const r = await run(["generate", ...args, "--out", out, "--workers", "2", "--quiet"]);
        expect(r.code, `${kind}: ${r.stderr}`).toBe(code);
        expect(r.stderr).toMatch(/^(\S+:\d+:\d+: error: |pddl2prm: error: )[^\n]*\n$/);
        expect(snapshot(out), kind).toEqual(before);
      }
    });
  }
});
