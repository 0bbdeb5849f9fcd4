/**
 * Issue 55: the audit on the bytes a trainer reads. Plants from families that are not the
 * audit's training set (tests/audit-raw-plants.ts: the thirteen the issue found `audit` missed,
 * and the held-out Unicode look-alikes) each fail `pddl2prm audit` on a check that names the
 * planted feature; clean folders of seven formats on two seeds pass; shuffling the rows of each
 * state changes no figure but the row-order rules'; the length x goal rule is at chance on
 * chains and plans.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAudit, type AuditReport } from "../src/audit/index.js";
import { lengthGoal } from "../src/audit/audit.js";
import { rawTokens } from "../src/audit/raw.js";
import { plantInto } from "./audit-plants.js";
import { HELD_OUT, PLANTS_55, SHUFFLE_STATES, swapSentences } from "./audit-raw-plants.js";
import { cliRunner } from "./cli-run.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-audit-raw-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = cliRunner(tmp);

const DOMAINS = "blocksworld,ferry,logistics";
/** Problems per domain: chain and pair formats have one or two units per problem, so more of them. */
const COUNT: Record<string, number> = { native: 12, trl: 12, pairs: 24, feedback: 20, trajectories: 30, processbench: 40, verifier: 40 };
const FORMATS = Object.keys(COUNT);
const SEEDS = [4242, 9090];
const clean = new Map<string, string>();
const errors = new Map<string, string>();

beforeAll(async () => {
  for (const seed of SEEDS) {
    for (const f of FORMATS) {
      const dir = join(tmp, `clean-${f}-${seed}`);
      const r = await cli(["generate", "--domain", DOMAINS, "--count", String(COUNT[f]), "--seed", String(seed), "--format", f, "--out", dir, "--quiet"]);
      if (r.code === 0) clean.set(`${f}/${seed}`, dir);
      else errors.set(`${f}/${seed}`, r.stderr);
    }
  }
}, 1_500_000);

/** With AUDIT_RAW_RESULTS=FILE, what each test saw is appended there (bench/results/audit-raw.txt). */
function note(text: string): void {
  const file = process.env["AUDIT_RAW_RESULTS"];
  if (file) appendFileSync(file, `${text}\n`);
}

function folder(f: string, seed = SEEDS[0]!): string {
  const d = clean.get(`${f}/${seed}`);
  if (d === undefined) throw new Error(`generate --format ${f} --seed ${seed} failed: ${errors.get(`${f}/${seed}`)}`);
  return d;
}

/** The features a FAIL line names (JSON strings after "features:"). */
function named(line: string): string[] {
  return [...(/features: (.*)$/.exec(line)?.[1] ?? "").matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]!}"`) as string);
}

describe("the raw probe's text form", () => {
  it("keeps white space, case, punctuation and Unicode; skips only a single space between plain words", () => {
    expect(rawTokens("Step 3: Since block 2 is clear, I pick it up.")).toEqual(["␂⟨⟩Step", "Step⟨ ⟩9", "9⟨: ⟩Since", "Since⟨ ⟩block", "clear⟨, ⟩I", "I⟨ ⟩pick", "up⟨.⟩␃"]);
    expect(rawTokens("Step 3:\u00a0Since  Block 02 is clear..")).toEqual(["␂⟨⟩Step", "Step⟨ ⟩9", "9⟨:\u00a0⟩Since", "Since⟨  ⟩Block", "Block⟨ ⟩09", "09⟨ ⟩is", "clear⟨..⟩␃"]);
    expect(rawTokens("a blоck")).toEqual(["␂⟨⟩a", "a⟨ ⟩bl\u043eck", "bl\u043eck⟨⟩␃"]); // a Cyrillic 'о' stays
    expect(rawTokens("a\n\nb")).toEqual(["␂⟨⟩a", "a⟨\n\n⟩b", "b⟨⟩␃"]);
    expect(swapSentences("Step 1: Because x, I do y. Now z holds.")).toBe("Step 1: Now z holds. Because x, I do y.");
  });

  it("length x goal: cells learnt on one half of the problems, scored on the other", () => {
    const items = Array.from({ length: 400 }, (_, i) => ({ wrong: [1, 9] as [number, number], right: [1, 7] as [number, number], problem: `d/p${i}` }));
    // before issue 55: both at the goal, the wrong one longer: a perfect tell
    expect(lengthGoal(items).value).toBe(1);
    // lengths drawn alike: chance
    const fair = items.map((x, i) => ({ ...x, wrong: [0, i % 2 === 0 ? 9 : 7] as [number, number], right: [0, i % 2 === 0 ? 7 : 9] as [number, number] }));
    expect(Math.abs(lengthGoal(fair).value - 0.5)).toBeLessThan(0.1);
  });
});

describe("audit on raw bytes (issue 55)", () => {
  it.each(SEEDS.flatMap((s) => FORMATS.map((f) => [f, s] as const)))("clean %s data (seed %d) passes", async (f, seed) => {
    const r = await cli(["audit", folder(f, seed)]);
    note(`$ pddl2prm generate --domain ${DOMAINS} --count ${COUNT[f]} --seed ${seed} --format ${f}; pddl2prm audit DIR   # exit ${r.code}\n${r.stdout.split("\n").filter((l) => /^(checks:|audit:|  FAIL|raw form|side raw form|row order|length x goal)/.test(l)).join("\n")}\n`);
    expect(r.stdout, r.stdout).toMatch(/audit: pass$/m);
    expect(r.code).toBe(0);
  }, 300_000);

  it.each([...PLANTS_55, ...HELD_OUT].map((p) => [p.name, p] as const))("planted: %s fails with exit 1 and names the feature", async (_, plant) => {
    const dir = join(tmp, `plant-${plant.name.replace(/\W+/g, "-")}`);
    plantInto(folder(plant.format), dir, plant);
    const r = await cli(["audit", dir]);
    note(`$ pddl2prm audit <${plant.format} seed ${SEEDS[0]}, planted: ${plant.what}>   # exit ${r.code}\n${r.stdout.split("\n").filter((l) => /^(checks:|audit:|  FAIL)/.test(l)).join("\n")}\n`);
    expect(r.code, `${plant.what}:\n${r.stdout}`).toBe(1);
    const lines = r.stdout.split("\n").filter((l) => l.startsWith("  FAIL ") && plant.check.test(l));
    expect(lines.length, `${plant.what}: no failed check matches ${String(plant.check)}:\n${r.stdout}`).toBeGreaterThan(0);
    if (plant.feature !== undefined) {
      const names = lines.flatMap(named);
      expect(names.some((x) => plant.feature!.test(x)), `${plant.what}: features ${JSON.stringify(names)}`).toBe(true);
    }
  }, 300_000);

  it("rows of each state shuffled (a label-free control): the same verdict and figures, but the row-order rules'", async () => {
    const dir = join(tmp, "control-shuffled");
    plantInto(folder("native"), dir, SHUFFLE_STATES);
    // the same figures: up to the order of floating-point sums (a mean over held-out rows read in another order)
    const round = (x: unknown): unknown =>
      typeof x === "number" ? Number(x.toPrecision(12)) : Array.isArray(x) ? x.map(round) : x !== null && typeof x === "object" ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v)])) : x;
    const strip = (r: AuditReport): unknown => round({
      ...r,
      dir: "",
      rules: r.rules.filter((x) => !x.name.startsWith("row order")),
      best_rule: null,
      checks: r.checks.filter((c) => !c.name.startsWith("row order")),
    });
    const a = await runAudit(folder("native"));
    const b = await runAudit(dir);
    const order = (x: AuditReport): string => x.rules.filter((y) => y.name.startsWith("row order")).map((y) => `${y.group} ${y.value.toFixed(3)}`).join(", ");
    note(`control: native seed ${SEEDS[0]}, rows of each state shuffled: pass ${a.pass} -> ${b.pass}; text-minus-action gap ${a.classifiers.gap.toFixed(4)} -> ${b.classifiers.gap.toFixed(4)}; row order AUCs ${order(a)} -> ${order(b)}`);
    expect(b.pass).toBe(a.pass);
    expect(strip(b)).toEqual(strip(a));
  }, 300_000);

  it.each(["processbench", "verifier", "trajectories"].flatMap((f) => SEEDS.map((s) => [f, s] as const)))("%s (seed %d): the length x goal rule is at chance", async (f, seed) => {
    const r = await runAudit(folder(f, seed));
    const rule = r.rules.find((x) => x.name === "length x goal" && x.group === "all")!;
    note(`length x goal, ${f} seed ${seed}: value ${rule.value.toFixed(3)} (gain ${(rule.value - 0.5).toFixed(3)}, se ${rule.se.toFixed(3)}, n ${rule.n} pairs)${r.rules.filter((x) => x.name === "length x goal" && x.group !== "all").map((x) => `; ${x.group} ${x.value.toFixed(3)} (n ${x.n})`).join("")}`);
    expect(rule.n).toBeGreaterThan(50);
    expect(Math.abs(rule.value - 0.5), JSON.stringify(rule)).toBeLessThanOrEqual(Math.max(0.02, 2.5 * rule.se));
  }, 300_000);
});
