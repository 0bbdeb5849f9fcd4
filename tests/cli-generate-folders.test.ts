/**
 * `generate` over folders with per-problem domain files, `--pairs` lists, and failed runs that
 * must leave the output folder as they found it.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { domainFileFor } from "../src/pddl/files.js";
import { listProblemFiles } from "../src/dataset/problems.js";
import { ground, validatePlan } from "../src/task/index.js";
import { cliRunner, ROOT, type CliResult } from "./cli-run.js";

const FIX = join(ROOT, "tests", "fixtures", "conformance", "per-problem-domains");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-folders-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Asynchronous: back-to-back synchronous runs starve vitest's worker RPC in the full suite. A
// test of several runs may take minutes on a loaded machine.
const run = cliRunner(tmp);
vi.setConfig({ testTimeout: 300_000 });

function rows(out: string): Array<{ domain: string; problem: string; meta: { prefix: string[]; action: string } }> {
  const dir = join(out, "data");
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .flatMap((n) => readFileSync(join(dir, n), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => JSON.parse(l));
}

/** Every file below `dir` (relative paths), sorted. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe("domainFileFor", () => {
  it("finds per-problem domain files by the problem's name or its pNN prefix, else domain.pddl", () => {
    const d = join(tmp, "names");
    mkdirSync(d);
    for (const f of ["domain_p20_1.pddl", "p01-domain.pddl", "domain.pddl", "x_domain.pddl"]) writeFileSync(join(d, f), "");
    expect(domainFileFor(d, "p20_1.pddl")).toBe(join(d, "domain_p20_1.pddl")); // openstacks-opt14
    expect(domainFileFor(d, "p01-airport1-p1.pddl")).toBe(join(d, "p01-domain.pddl")); // airport
    expect(domainFileFor(d, "x.pddl")).toBe(join(d, "x_domain.pddl"));
    expect(domainFileFor(d, "p07.pddl")).toBe(join(d, "domain.pddl"));
    rmSync(join(d, "domain.pddl"));
    expect(domainFileFor(d, "p07.pddl")).toBeNull();
  });
});

describe("listProblemFiles", () => {
  it("reads globs as a shell does: *, ?, [classes], [!negated], {a,b}; a name that exists is taken as named", () => {
    const d = join(tmp, "globs");
    mkdirSync(d);
    for (const f of ["p01.pddl", "p02.pddl", "p03.pddl", "p10.pddl", "q1.pddl", "domain.pddl", "[x].pddl"]) writeFileSync(join(d, f), "");
    const names = (spec: string): string[] => listProblemFiles(join(d, spec)).map((p) => p.slice(d.length + 1));
    expect(names("p0[123].pddl")).toEqual(["p01.pddl", "p02.pddl", "p03.pddl"]);
    expect(names("p0[1-2].pddl")).toEqual(["p01.pddl", "p02.pddl"]);
    expect(names("p0[!1].pddl")).toEqual(["p02.pddl", "p03.pddl"]);
    expect(names("p?[0].pddl")).toEqual(["p10.pddl"]);
    expect(names("{p01,q1}.pddl")).toEqual(["p01.pddl", "q1.pddl"]);
    expect(names("p*.pddl")).toEqual(["p01.pddl", "p02.pddl", "p03.pddl", "p10.pddl"]);
    expect(names("[x].pddl")).toEqual(["[x].pddl"]);
    expect(() => listProblemFiles(join(d, "p0[4-9].pddl"))).toThrow(/no problem files found/);
    // a wildcard does not match a leading dot (an editor's backup), unless the pattern starts with one
    writeFileSync(join(d, ".p05.pddl"), "");
    expect(names("*.pddl")).toEqual(["[x].pddl", "domain.pddl", "p01.pddl", "p02.pddl", "p03.pddl", "p10.pddl", "q1.pddl"]);
    expect(names(".p*.pddl")).toEqual([".p05.pddl"]);
  });
});

describe("generate over per-problem domain files", () => {
  it("labels a folder whose problems have their own domain files in one command; pddl/ keeps each", async () => {
    const out = join(tmp, "perprob");
    const r = await run(["generate", "--problems", FIX, "--out", out, "--workers", "2", "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rs = rows(out);
    expect(new Set(rs.map((x) => x.problem))).toEqual(new Set(["p01", "p02"]));
    expect(new Set(rs.map((x) => x.domain))).toEqual(new Set(["ferry-costs"]));
    const pddl = join(out, "pddl", "ferry-costs");
    expect(readdirSync(pddl).sort()).toEqual(["p01.domain.pddl", "p01.pddl", "p02.domain.pddl", "p02.pddl"]);
    expect(readFileSync(join(pddl, "p01.domain.pddl"), "utf8")).toBe(readFileSync(join(FIX, "domain_p01.pddl"), "utf8"));
    expect(readFileSync(join(pddl, "p02.domain.pddl"), "utf8")).toBe(readFileSync(join(FIX, "p02-domain.pddl"), "utf8"));
    // every row replays against the PDDL stored with it: prefix valid, and the costs differ per domain
    for (const x of rs) {
      const dom = parseDomain(readFileSync(join(pddl, `${x.problem}.domain.pddl`), "utf8"));
      const task = ground(dom, parseProblem(readFileSync(join(pddl, `${x.problem}.pddl`), "utf8"), "p", dom));
      const v = validatePlan(task, x.meta.prefix);
      // every prefix step executes (the goal is reached only at the end of the walk)
      expect(v.failure === null || "unmet_goal" in v.failure, `${x.problem}: ${x.meta.prefix.join(" ")}`).toBe(true);
    }
  });

  it("--pairs lists domain/problem paths relative to the list; a bad line is named file:line", async () => {
    const dir = join(tmp, "pairs");
    cpSync(FIX, join(dir, "f"), { recursive: true });
    writeFileSync(join(dir, "list.txt"), "# ferry with two cost models\nf/domain_p01.pddl f/p01.pddl\n\nf/p02-domain.pddl   f/p02.pddl  # cheap sailing\n");
    const out = join(tmp, "pairs-out");
    const r = await run(["generate", "--pairs", join(dir, "list.txt"), "--out", out, "--workers", "1", "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(new Set(rows(out).map((x) => x.problem))).toEqual(new Set(["p01", "p02"]));
    // the published config names files, never local paths
    const config = JSON.parse(readFileSync(join(out, "config.json"), "utf8")).config;
    expect(config.pairs).toBe("list.txt");
    expect(config.domain_file).toBeNull();
    // swapping the two domain files between the problems is another dataset (config hash)
    // (same list file name, same domain and problem texts, other pairing)
    mkdirSync(join(dir, "swap"));
    mkdirSync(join(dir, "swap2"));
    writeFileSync(join(dir, "f", "p03.pddl"), readFileSync(join(FIX, "p01.pddl"), "utf8").replace("ferry-costs-1", "ferry-costs-3"));
    const a = "../f/domain_p01.pddl ../f/p01.pddl\n../f/p02-domain.pddl ../f/p02.pddl\n";
    writeFileSync(join(dir, "swap", "list.txt"), a + "../f/domain_p01.pddl ../f/p03.pddl\n");
    writeFileSync(join(dir, "swap2", "list.txt"), a + "../f/p02-domain.pddl ../f/p03.pddl\n");
    const hash = async (list: string): Promise<string> => {
      const o = join(tmp, `pairs-${list.replace(/\W/g, "")}`);
      expect((await run(["generate", "--pairs", join(dir, list), "--out", o, "--workers", "1", "--quiet"])).code).toBe(0);
      return JSON.parse(readFileSync(join(o, "config.json"), "utf8")).config_hash;
    };
    expect(await hash("swap/list.txt")).not.toBe(await hash("swap2/list.txt"));
    writeFileSync(join(dir, "bad.txt"), "f/domain_p01.pddl f/p01.pddl\nf/p02.pddl\n");
    const bad = await run(["generate", "--pairs", join(dir, "bad.txt"), "--out", join(tmp, "pairs-bad")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${join(dir, "bad.txt")}:2: expected 'DOMAIN PROBLEM'`);
    const both = await run(["generate", "--pairs", join(dir, "list.txt"), "--problems", FIX]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--pairs alone/);
  });

  it("a problem without a domain file beside it is a clear error", async () => {
    const dir = join(tmp, "lonely");
    mkdirSync(dir);
    cpSync(join(FIX, "p01.pddl"), join(dir, "p01.pddl"));
    const r = await run(["generate", "--problems", dir, "--out", join(tmp, "lonely-out")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/p01\.pddl: no domain file beside it/);
    expect(existsSync(join(tmp, "lonely-out"))).toBe(false);
  });
});

describe("problem folders", () => {
  it("hidden files (editor backups) are not problems; a UTF-8 byte-order mark is accepted", async () => {
    const dir = join(tmp, "hidden");
    cpSync(FIX, dir, { recursive: true });
    writeFileSync(join(dir, ".#p01.pddl"), "garbage");
    writeFileSync(join(dir, "p01.pddl"), "\uFEFF" + readFileSync(join(FIX, "p01.pddl"), "utf8"));
    expect(listProblemFiles(dir).map((f) => f.slice(dir.length + 1))).toEqual(["p01.pddl", "p02.pddl"]);
    const out = join(tmp, "hidden-out");
    const r = await run(["generate", "--problems", dir, "--out", out, "--workers", "1", "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, "pddl", "ferry-costs", "p01.pddl"), "utf8").charCodeAt(0)).toBe(0xfeff);
  });
});

describe("a failed run leaves the output folder as it found it", () => {
  const badFolder = (): string => {
    const dir = mkdtempSync(join(tmp, "bad-"));
    cpSync(FIX, dir, { recursive: true });
    writeFileSync(join(dir, "p03.pddl"), "(define (problem p3) (:domain ferry-costs)\n  (:objects a - place)\n  (:init (ferry-at a))\n  (:goal (car-at zz a)))\n");
    cpSync(join(FIX, "domain_p01.pddl"), join(dir, "domain_p03.pddl"));
    return dir;
  };

  it("bad PDDL: no folder when there was none, the same files when there was one; the corrected re-run works", async () => {
    const dir = badFolder();
    const fresh = join(tmp, "fresh-out");
    const r = await run(["generate", "--problems", dir, "--out", fresh, "--workers", "2"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/p03\.pddl:4:\d+: error: undeclared object 'zz'/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(fresh)).toBe(false);

    const existing = join(tmp, "existing-out");
    mkdirSync(existing);
    writeFileSync(join(existing, ".keep"), "");
    expect((await run(["generate", "--problems", dir, "--out", existing])).code).toBe(1);
    expect(tree(existing)).toEqual([".keep"]);

    rmSync(join(dir, "p03.pddl"));
    const ok = await run(["generate", "--problems", dir, "--out", existing, "--workers", "2", "--quiet"]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(tree(existing)).toContain("manifest.json");
  });

  it("an error found by a worker (bad templates) removes what the run created", async () => {
    const templates = join(tmp, "bad-templates.json");
    writeFileSync(templates, '{ "types": 5 }');
    const out = join(tmp, "tpl-out");
    const r = await run(["generate", "--domain-file", join(FIX, "domain_p01.pddl"), "--problems", join(FIX, "p01.pddl"), "--templates", templates, "--out", out, "--workers", "2"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad-templates\.json/);
    expect(existsSync(out)).toBe(false);
  });
});

describe("corrupt state files and a file as --out are clear errors, not stack traces", () => {
  it("config.json not JSON, config.json {}, a corrupt completion record, --out naming a file", async () => {
    const out = join(tmp, "state");
    const args = ["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet"];
    expect((await run(args)).code).toBe(0);
    const config = join(out, "config.json");
    const good = readFileSync(config, "utf8");
    const marker = join(out, "completions", "00000");
    const rec = readFileSync(marker, "utf8");
    const expectClear = (r: CliResult, re: RegExp): void => {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(re);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    };
    writeFileSync(config, "{ not json");
    expectClear(await run(args), /config\.json: cannot read the pddl2prm config \(not JSON\)/);
    writeFileSync(config, "{}");
    expectClear(await run(["merge", out, "--verify"]), /config\.json: not a valid pddl2prm config/);
    writeFileSync(config, good);
    writeFileSync(marker, rec.replace('"shards":', '"shardz":'));
    expectClear(await run(args), /completions\/00000: not a valid pddl2prm completion record \(Required at shards\)/);
    writeFileSync(marker, rec);
    expect((await run(args)).code).toBe(0); // intact again: resumes
    const file = join(tmp, "a-file");
    writeFileSync(file, "x");
    expectClear(await run(["generate", "--problems", FIX, "--out", file]), /--out .*a-file: is a file, not a folder/);
    expect(readFileSync(file, "utf8")).toBe("x");
  });
});

describe("--force", () => {
  it("replaces a dataset made with other settings but removes only what pddl2prm wrote", async () => {
    const out = join(tmp, "victim");
    mkdirSync(join(out, "src"), { recursive: true });
    writeFileSync(join(out, "src", "important.txt"), "keep me");
    mkdirSync(join(out, "plots"));
    writeFileSync(join(out, "plots", "mine.txt"), "keep me too");
    writeFileSync(join(out, "config.json"), '{ "config_hash": "abc", "config": {} }');
    const r = await run(["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/other settings/);
    const f = await run(["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet", "--force"]);
    expect(f.stderr).toBe("");
    expect(f.code).toBe(0);
    expect(readFileSync(join(out, "src", "important.txt"), "utf8")).toBe("keep me");
    const again = await run(["generate", "--problems", FIX, "--out", out, "--workers", "1", "--quiet", "--seed", "2", "--force"]);
    expect(again.code).toBe(0);
    expect(readFileSync(join(out, "src", "important.txt"), "utf8")).toBe("keep me");
    expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8")).config.seed).toBe(2);
    // the plots it drew are its own (replaced), a file of someone else's beside them is not
    expect(readdirSync(join(out, "plots")).sort()).toEqual(["categories.svg", "mine.txt", "plan-lengths.svg"]);
  });
});

