/**
 * Issue 52's open questions (unreachable fact, landmark fact, simplified plan): every gold
 * re-derived by the brute force (bench/acp-truth.ts: the gold lists are exactly the right
 * answers); `score` accepts every right answer, as models write it, and rejects wrong ones;
 * the right option's length rank of a choice is drawn, not what the pool gives.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check, enumerate, stateOf, World, type Space } from "../bench/acp-truth.js";
import { byLengthRank, gradeAcp, type AcpRow } from "../src/reasoning/index.js";
import { acpGoldOf, AcpTextReader } from "../src/reasoning/score.js";
import { Prng } from "../src/util/prng.js";
import { ROOT, rowsOf } from "./pairs-helpers.js";

const OPEN = new Set(["unreachable-fact", "landmark-fact", "plan-simplification"]);
const CASES: [string, string][] = [
  ["spanner", "p0001"],
  ["elevator", "p0001"],
  ["rooms", "p0001"],
  ["blocksworld", "p0001"],
  ["logistics", "p0001"],
];
const MAX = 200_000;

describe("open questions: golds re-derived, every right answer accepted", () => {
  it.each(CASES)("%s %s", async (domain, problem) => {
    const w = World.fromFiles(join(ROOT, "domains", domain, "domain.pddl"), join(ROOT, "problems", domain, `${problem}.pddl`));
    // the reader parses answers in words on the problem's own files (a dataset's pddl/ copy)
    const dir = mkdtempSync(join(tmpdir(), "pddl2prm-open-"));
    mkdirSync(join(dir, "pddl", domain), { recursive: true });
    copyFileSync(join(ROOT, "domains", domain, "domain.pddl"), join(dir, "pddl", domain, "domain.pddl"));
    copyFileSync(join(ROOT, "problems", domain, `${problem}.pddl`), join(dir, "pddl", domain, `${problem}.pddl`));
    const reader = new AcpTextReader(dir);
    const rows = rowsOf<AcpRow>(domain, problem, "acp", 1.0, 1).rows.filter((r) => OPEN.has(r.kind));
    expect(rows.length, domain).toBeGreaterThan(0);
    for (const row of rows) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const s = stateOf(w, row);
      let sp: Space | undefined;
      const full = (): Space => (sp ??= enumerate(w, s, MAX));
      expect(row.form).toBe("free");
      expect(check(w, row, s, full, MAX), row.id).toBe(true);
      const g = acpGoldOf(row as unknown as Record<string, unknown>);
      const accept = row.meta.gold.accept!;
      if (row.kind === "plan-simplification") {
        const plan = row.meta.plan!;
        // every removal of one step or two in a row that the brute force finds valid is accepted, the others not
        for (const n of [1, 2])
          for (let i = 0; i + n <= plan.length; i++) {
            const sub = plan.filter((_, j) => j < i || j >= i + n);
            const ok = w.run(s, sub).failed === 0 && w.isGoal(w.run(s, sub).state);
            expect(gradeAcp(g, sub.join("\n"), null) || !ok, `${row.id} without ${i + 1}+${n}`).toBe(true);
            if (!ok) expect(gradeAcp(g, sub.join("\n"), null), `${row.id} without ${i + 1}+${n}`).toBe(false);
          }
        // the dataset's own answer, in words, replayed on the problem
        expect(gradeAcp(g, row.answer, reader), `${row.id} words`).toBe(true);
        expect(gradeAcp(g, `The simplified plan:\n1. ${accept[0]!.replace(/\) \(/g, ")\n2. (")}`, null)).toBe(true);
        expect(gradeAcp(g, plan.join("\n"), null), "nothing removed").toBe(false);
        expect(gradeAcp(g, [...accept[0]!.match(/\([^()]*\)/g)!].reverse().join("\n"), null), "reordered").toBe(accept[0]!.match(/\(/g)!.length <= 1);
        continue;
      }
      // every fact of the gold list, as PDDL, as ACPBench's bare atom, after "The answer is"
      for (const f of accept) {
        expect(gradeAcp(g, f, null), `${row.id} ${f}`).toBe(true);
        expect(gradeAcp(g, f.slice(1, -1), null), `${row.id} bare ${f}`).toBe(true);
        expect(gradeAcp(g, `<think>maybe (x y)</think>The answer is **${f}**.`, null), `${row.id} marked ${f}`).toBe(true);
      }
      // wrong: a fact true now, two facts at once, a fact the brute force can reach (unreachable) or avoid (landmark)
      const now = w.facts(s)[0]!;
      expect(gradeAcp(g, now, null), `${row.id} true now`).toBe(false);
      if (accept.length >= 1) expect(gradeAcp(g, `${accept[0]} ${now}`, null)).toBe(false);
      const reached = [...new Set(full().states.flatMap((x) => w.facts(x)))].filter((f) => !accept.includes(f));
      for (const f of reached.slice(0, 20)) expect(gradeAcp(g, f, null), `${row.id} ${f}`).toBe(false);
      // the dataset's own answer, in words
      expect(gradeAcp(g, row.answer, reader), row.id).toBe(true);
    }
  }, 120_000);
});

describe("choices: the right option's length rank is drawn", () => {
  it("four options of one length where they exist, else a uniform rank (no question where it cannot be met)", () => {
    const ranks = [0, 0, 0, 0];
    let asked = 0;
    for (let seed = 0; seed < 400; seed++) {
      const p = new Prng(seed, "len");
      // the right items are short; distractors of every length
      const r = byLengthRank(p, ["ab", "cd"], ["x", "yyy", "zzzz", "w", "vvvvv", "uuu", "t"], (x) => x);
      if (r === null) continue;
      asked++;
      const lens = r.items.map((x) => x.length);
      ranks[lens.slice(1).filter((n) => n < lens[0]!).length]!++;
    }
    expect(asked).toBeGreaterThan(300);
    for (const k of ranks) expect(k / asked).toBeGreaterThan(0.18);
    for (const k of ranks) expect(k / asked).toBeLessThan(0.32);
    // the right item shorter than every distractor: asked only when the drawn rank is 0 (about 1 time in 4)
    let shortest = 0;
    for (let seed = 0; seed < 200; seed++) if (byLengthRank(new Prng(seed, "x"), ["a"], ["bb", "cc", "dd"], (x) => x) !== null) shortest++;
    expect(shortest / 200).toBeGreaterThan(0.15);
    expect(shortest / 200).toBeLessThan(0.35);
    // equal lengths available: taken
    expect(byLengthRank(new Prng(1, "y"), ["aa"], ["bb", "cc", "dd", "e"], (x) => x)!.items.map((x) => x.length)).toEqual([2, 2, 2, 2]);
  });
});
