/**
 * `merge --verify` and `audit` fail on a dataset folder that is not whole (issue 50): a file the
 * completion records, the ledger or the manifest list that is missing, emptied or changed, a
 * stray file in data/ that `load_dataset` would read, a `--force` swap stopped half-way. One
 * line per problem naming its file, exit 1, no stack trace; `merge --verify` writes nothing then.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliRunner, ROOT, type CliResult } from "./cli-run.js";
import { fileTempDir } from "./temp-dir.js";
import { ownedFiles } from "../src/dataset/ownership.js";
import { JOURNAL, STAGE } from "../src/dataset/replace.js";
import { checkDatasetFolder } from "../src/dataset/integrity.js";

const tmp = fileTempDir("pddl2prm-verify-");
const run = cliRunner(tmp);
const FIX = join(ROOT, "tests", "fixtures", "conformance", "per-problem-domains");
/** 20 blocksworld problems: a train and a test shard. */
const GEN = ["generate", "--domain", "blocksworld", "--count", "20", "--workers", "1", "--quiet"];
const TRAIN = join("data", "train-00000-of-00001.jsonl");
const TEST = join("data", "test-00000-of-00001.jsonl");

let base = "";
let n = 0;
/** A fresh copy of the intact dataset. */
function copy(): string {
  const dir = join(tmp, `case-${n++}`);
  cpSync(base, dir, { recursive: true });
  return dir;
}

/** Exit 1, the given lines on stderr (each naming its file), no stack trace. */
function expectFails(r: CliResult, ...lines: RegExp[]): void {
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stderr).toMatch(/^pddl2prm: error: .*: the dataset folder fails its check \(\d+ problems?\):\n/);
  for (const re of lines) expect(r.stderr).toMatch(re);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout).toBe("");
}

beforeAll(async () => {
  base = join(tmp, "base");
  const g = await run([...GEN, "--seed", "3", "--out", base]);
  expect(g.code, g.stderr).toBe(0);
  expect(existsSync(join(base, TRAIN)) && existsSync(join(base, TEST))).toBe(true);
}, 120_000);

describe("an intact folder passes", () => {
  it("merge --verify and audit pass; an edited card is the user's, not damage", async () => {
    const dir = copy();
    expect(await checkDatasetFolder(dir, { merged: true })).toEqual([]);
    const a = await run(["audit", dir]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toMatch(/audit: pass\n$/);
    writeFileSync(join(dir, "README.md"), readFileSync(join(dir, "README.md"), "utf8") + "\nOur notes.\n");
    expect(await checkDatasetFolder(dir, { merged: true })).toEqual([]);
    const m = await run(["merge", dir, "--verify"]);
    expect(m.code, m.stderr).toBe(0);
    // the merge keeps the user's card and says so, in one line
    expect(m.stderr).toMatch(/^pddl2prm: warning: kept \S+\/README\.md \(not pddl2prm's: edited, or not in its ledger\)[^\n]*\n$/);
  }, 60_000);

  it("per-problem domain files (pddl/<domain>/<problem>.domain.pddl) pass; one missing fails", async () => {
    const dir = join(tmp, "per-problem");
    expect((await run(["generate", "--problems", FIX, "--out", dir, "--workers", "1", "--quiet"])).code).toBe(0);
    const own = readdirSync(join(dir, "pddl"), { recursive: true }).map(String).filter((p) => p.endsWith(".domain.pddl"));
    expect(own.length).toBeGreaterThan(1);
    expect((await run(["merge", dir, "--verify"])).code).toBe(0);
    rmSync(join(dir, "pddl", own[0]!));
    expectFails(await run(["merge", dir, "--verify"]), new RegExp(`\n  .*pddl/${own[0]!.replace(/\./g, "\\.")}: missing \\(the domain file of problem `));
  }, 60_000);
});

describe("merge --verify", () => {
  it("a half-swapped folder (journal left, the new PDDL copies still in the staging folder) fails", async () => {
    // the state a kill between two renames of a `--force` swap leaves (replace.ts finishSwap):
    // the old dataset's files moved aside, the new config, records, shards and card in place,
    // its PDDL copies not yet
    const out = copy();
    expect((await run([...GEN, "--seed", "4", "--out", join(out, STAGE)])).code).toBe(0);
    const oldFiles = [...ownedFiles(out)].sort();
    const newFiles = (readdirSync(join(out, STAGE), { recursive: true }) as string[]).filter((r) => statSync(join(out, STAGE, r)).isFile() && !r.startsWith(".pddl2prm-lock"));
    writeFileSync(join(out, JOURNAL), JSON.stringify({ old: oldFiles, new: newFiles }));
    for (const rel of oldFiles) {
      mkdirSync(dirname(join(out, ".pddl2prm-old", rel)), { recursive: true });
      renameSync(join(out, rel), join(out, ".pddl2prm-old", rel));
    }
    for (const rel of newFiles.filter((r) => !r.startsWith("pddl"))) {
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      renameSync(join(out, STAGE, rel), join(out, rel));
    }
    const manifest = readFileSync(join(out, "manifest.json"));
    const r = await run(["merge", out, "--verify"]);
    expectFails(r, /\n  .*\.pddl2prm-swap\.json: a `generate --force` replacement of this dataset stopped half-way/, /\n  .*\/pddl\/blocksworld: holds none of the PDDL copies of its 20 problems\n$/);
    expect(r.stderr).toMatch(/\(2 problems\)/);
    expect(readFileSync(join(out, "manifest.json")).equals(manifest)).toBe(true); // nothing written
  }, 60_000);

  it("PDDL copies missing or emptied fail, one line each (a whole domain folder: one line)", async () => {
    const some = copy();
    rmSync(join(some, "pddl", "blocksworld", "p0003.pddl"));
    rmSync(join(some, "pddl", "blocksworld", "domain.pddl"));
    writeFileSync(join(some, "pddl", "blocksworld", "p0004.pddl"), "");
    const r = await run(["merge", some, "--verify"]);
    expectFails(
      r,
      /\n  .*pddl\/blocksworld\/p0003\.pddl: missing \(the PDDL copy of problem blocksworld\/p0003\)/,
      /\n  .*pddl\/blocksworld\/domain\.pddl: missing \(the domain file of blocksworld's problems\)/,
      /\n  .*pddl\/blocksworld\/p0004\.pddl: empty \(the PDDL copy of problem blocksworld\/p0004\)/,
    );
    expect(r.stderr).toMatch(/\(3 problems\)/);
    const all = copy();
    rmSync(join(all, "pddl", "blocksworld"), { recursive: true });
    expectFails(await run(["merge", all, "--verify"]), /\(1 problem\):\n  .*pddl\/blocksworld: missing \(the PDDL copies of 20 problems\)\n$/);
  }, 60_000);

  it("a user's data/train-user.jsonl fails before anything is written; plain merge and generate warn of it", async () => {
    const dir = copy();
    writeFileSync(join(dir, "data", "train-user.jsonl"), readFileSync(join(dir, TRAIN), "utf8").split("\n")[0] + "\n");
    const manifest = readFileSync(join(dir, "manifest.json"));
    const r = await run(["merge", dir, "--verify"]);
    expectFails(r, /\n  .*data\/train-user\.jsonl: not a shard of this dataset \(no completion record lists it\), and load_dataset would read it as train rows \(the card's data\/train-\* pattern\); move it out of data\//);
    expect(readFileSync(join(dir, "manifest.json")).equals(manifest)).toBe(true);
    // a file no pattern of the card picks up (this dataset has no validation split) is still not a shard; a hidden one is let be
    writeFileSync(join(dir, "data", "notes.txt"), "ours\n");
    writeFileSync(join(dir, "data", "validation-mine.jsonl"), "{}\n");
    writeFileSync(join(dir, "data", ".DS_Store"), "x");
    expectFails(
      await run(["merge", dir, "--verify"]),
      /\(3 problems\)/,
      /\n  .*data\/notes\.txt: not a shard of this dataset \(no completion record lists it\); data\/ holds only the dataset's shards: move it out of data\//,
      /\n  .*data\/validation-mine\.jsonl: not a shard of this dataset \(no completion record lists it\); data\//,
    );
    const plain = await run(["merge", dir]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/^pddl2prm: warning: .*data\/train-user\.jsonl: not a shard of this dataset \(no completion record lists it\), and load_dataset would read it as train rows/);
    expect(plain.stderr).not.toMatch(/notes\.txt|validation-mine/);
    const again = await run([...GEN, "--seed", "3", "--out", dir]); // the same settings: already complete
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/pddl2prm: warning: .*data\/train-user\.jsonl: not a shard of this dataset/);
    expect(await run(["audit", dir])).toMatchObject({ code: 1 });
  }, 60_000);

  it("a same-size edit of a shard, an edited PDDL copy or completion record the ledger lists fail", async () => {
    const dir = copy();
    const shard = readFileSync(join(dir, TEST));
    shard[10] = shard[10]! === 0x61 ? 0x62 : 0x61;
    writeFileSync(join(dir, TEST), shard);
    const copyPath = join(dir, "pddl", "blocksworld", "p0002.pddl");
    writeFileSync(copyPath, readFileSync(copyPath, "utf8").replace(/\(:goal/, "(:goal ")); // a byte more
    const marker = join(dir, "completions", "00000");
    const rec = readFileSync(marker, "utf8");
    const edited = rec.replace(/"plan_length":(\d)/, (_, d: string) => `"plan_length":${(Number(d) + 1) % 10}`); // same size, still a valid record
    expect(edited).not.toBe(rec);
    writeFileSync(marker, edited);
    const r = await run(["merge", dir, "--verify"]);
    expectFails(
      r,
      /\n  .*data\/test-00000-of-00001\.jsonl: changed \(its sha256 is not the one the completion records list\)/,
      /\n  .*pddl\/blocksworld\/p0002\.pddl: \d+ bytes, the ledger says \d+/,
      /\n  .*completions\/00000: changed since pddl2prm wrote it \(its sha256 is not the one the ledger lists\)/,
    );
    expect(r.stderr).toMatch(/\(3 problems\)/);
    expect((await run(["audit", dir])).stderr).toMatch(/\(3 problems\)/);
  }, 60_000);
});

describe("the check follows no link inside the folder", () => {
  it("a PDDL folder or plots/ linked elsewhere is reported, not read through", async () => {
    const dir = copy();
    const elsewhere = join(tmp, "elsewhere");
    renameSync(join(dir, "pddl", "blocksworld"), elsewhere);
    symlinkSync(elsewhere, join(dir, "pddl", "blocksworld"));
    renameSync(join(dir, "plots"), join(tmp, "plots-elsewhere"));
    symlinkSync(join(tmp, "plots-elsewhere"), join(dir, "plots"));
    const problems = await checkDatasetFolder(dir, { merged: true });
    expect(problems).toEqual([
      `${join(dir, "pddl", "blocksworld")}: not a folder (a link)`,
      `${join(dir, "plots")}: a symbolic link where the dataset has a folder (pddl2prm does not follow links inside its folder)`,
    ]);
  });
});

describe("audit", () => {
  it("a folder without data/ fails (it said pass, on no rows)", async () => {
    const dir = copy();
    rmSync(join(dir, "data"), { recursive: true });
    expectFails(await run(["audit", dir]), /\(1 problem\):\n  .*\/data: missing \(the completion records list 2 shards in it\)\n$/);
  });

  it("an emptied train shard fails", async () => {
    const dir = copy();
    writeFileSync(join(dir, TRAIN), "");
    expectFails(await run(["audit", dir, "--json"]), /\n  .*data\/train-00000-of-00001\.jsonl: empty \(the completion records list \d+ rows, \d+ bytes\)/);
  });

  it("a missing shard fails", async () => {
    const dir = copy();
    rmSync(join(dir, TEST));
    expectFails(await run(["audit", dir]), /\n  .*data\/test-00000-of-00001\.jsonl: missing \(the completion records list it with \d+ rows\)/);
  });

  it("a folder without manifest.json or without the ledger fails; a manifest of other shards fails", async () => {
    const a = copy();
    rmSync(join(a, "manifest.json"));
    expectFails(await run(["audit", a]), /\n  .*manifest\.json: missing \(a complete dataset has one; `pddl2prm merge` writes it from the completion records\)/);
    const b = copy();
    rmSync(join(b, ".pddl2prm-files.json"));
    expectFails(await run(["audit", b]), /\n  .*\.pddl2prm-files\.json: missing \(a complete dataset has this list of its files; `pddl2prm merge .*` writes it\)/);
    const c = copy();
    const m = JSON.parse(readFileSync(join(c, "manifest.json"), "utf8")) as { shards: { path: string }[] };
    m.shards = m.shards.filter((s) => !s.path.startsWith("data/test-"));
    writeFileSync(join(c, "manifest.json"), JSON.stringify(m));
    expectFails(await run(["audit", c]), /\n  .*manifest\.json: does not list data\/test-00000-of-00001\.jsonl/);
    // merge writes them again: the folder passes
    expect((await run(["merge", a])).code).toBe(0);
    expect((await run(["merge", b])).code).toBe(0);
    expect(await checkDatasetFolder(a, { merged: true })).toEqual([]);
    expect(await checkDatasetFolder(b, { merged: true })).toEqual([]);
  }, 60_000);

  it("a user's data/train-user.jsonl fails", async () => {
    const dir = copy();
    writeFileSync(join(dir, "data", "train-user.jsonl"), readFileSync(join(dir, TRAIN), "utf8").split("\n")[0] + "\n");
    expectFails(await run(["audit", dir]), /\n  .*data\/train-user\.jsonl: not a shard of this dataset/);
  });
});
