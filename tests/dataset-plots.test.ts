import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { categoriesSvg, categoryMix, planLengthsSvg, PLOT_FILES } from "../src/dataset/plots.js";
import { emptyCounts, type ProblemRecord } from "../src/dataset/records.js";
import { fileTempDir } from "./temp-dir.js";

const ROOT = resolve(__dirname, "..");
const CLI = join(ROOT, "dist", "src", "cli", "main.js");
const tmp = fileTempDir("pddl2prm-plots-");
const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd: tmp });

function problem(domain: string, plan: number, counts: Partial<ProblemRecord["counts"]>, skipped: string | null = null): ProblemRecord {
  return { domain, problem: `p${plan}`, split: "train", rows: 0, plan_length: plan, skipped, counts: { ...emptyCounts(), ...counts } };
}

/** The data behind the marks of a Vega SVG (its aria-labels: "field: value; ..."). */
function marks(svg: string): Record<string, string>[] {
  return [...svg.matchAll(/aria-label="([^"]*)"/g)]
    .map((m) => m[1]!)
    .filter((l) => !/-axis/.test(l) && l.includes(": "))
    .map((l) => Object.fromEntries(l.split("; ").map((kv) => kv.split(": ") as [string, string])));
}

const PROBLEMS = [
  problem("ferry", 7, { optimal: 6, "non-executable": 2 }),
  problem("ferry", 7, { optimal: 4, suboptimal: 4 }),
  problem("ferry", 9, { optimal: 1 }),
  problem("hanoi", 3, { optimal: 3, "dead-end": 1 }),
  problem("hanoi", 0, {}, "time limit"),
];

describe("plots", () => {
  it("categoryMix sums candidates per domain and category, with shares", () => {
    expect(categoryMix(PROBLEMS)).toEqual([
      { domain: "ferry", category: "non-executable", rows: 2, share: 0.1176 },
      { domain: "ferry", category: "suboptimal", rows: 4, share: 0.2353 },
      { domain: "ferry", category: "optimal", rows: 11, share: 0.6471 },
      { domain: "hanoi", category: "dead-end", rows: 1, share: 0.25 },
      { domain: "hanoi", category: "optimal", rows: 3, share: 0.75 },
    ]);
  });

  it("draws one bar segment per domain and category, and one circle per plan length (skipped problems left out)", async () => {
    const cat = await categoriesSvg(PROBLEMS);
    expect(cat.startsWith("<svg")).toBe(true);
    expect(cat).toContain("Category mix per domain");
    const bars = marks(cat).filter((m) => "category" in m);
    expect(bars.map((m) => [m["domain"], m["category"], Number(m["rows"])])).toEqual(categoryMix(PROBLEMS).map((c) => [c.domain, c.category, c.rows]));
    const len = await planLengthsSvg(PROBLEMS);
    const dots = marks(len).filter((m) => "problems" in m);
    expect(dots.map((m) => [m["domain"], Number(m["plan_length"]), Number(m["problems"])])).toEqual([
      ["ferry", 7, 2],
      ["ferry", 9, 1],
      ["hanoi", 3, 1],
    ]);
    // same data, same bytes
    expect(await categoriesSvg(PROBLEMS)).toBe(cat);
  });

  it("generate writes the plots and the card embeds them; stats --plot redraws them", () => {
    const out = join(tmp, "d");
    expect(run(["generate", "--domain", "hanoi,ferry", "--count", "2", "--workers", "1", "--quiet", "--out", out]).status).toBe(0);
    const card = readFileSync(join(out, "README.md"), "utf8");
    for (const f of Object.values(PLOT_FILES)) {
      expect(card).toContain(`](${f})`);
      expect(readFileSync(join(out, f), "utf8")).toMatch(/^<svg[^>]*>/);
    }
    const before = readFileSync(join(out, PLOT_FILES.categories), "utf8");
    const r = run(["stats", out, "--plot", "--json"]);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { plots: string[] }).plots).toEqual(Object.values(PLOT_FILES));
    expect(readFileSync(join(out, PLOT_FILES.categories), "utf8")).toBe(before);
    const m = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { counts: { by_category: Record<string, number> } };
    const drawn = marks(before).filter((x) => "category" in x);
    for (const [k, n] of Object.entries(m.counts.by_category)) {
      expect(drawn.filter((x) => x["category"] === k).reduce((a, x) => a + Number(x["rows"]), 0), k).toBe(n);
    }
    // --force replaces the plots, and leaves a user's own file beside them alone
    writeFileSync(join(out, "plots", "notes.txt"), "mine\n");
    expect(run(["generate", "--domain", "hanoi", "--count", "1", "--workers", "1", "--quiet", "--out", out, "--force", "--seed", "9"]).status).toBe(0);
    expect(readFileSync(join(out, PLOT_FILES.categories), "utf8")).not.toContain("ferry");
    expect(readFileSync(join(out, "plots", "notes.txt"), "utf8")).toBe("mine\n");
  });
});
