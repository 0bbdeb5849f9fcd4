/**
 * Issue 55, second pass: the raw probe reads words and the exact characters between them (not a
 * form with lowercase words hidden), every other string field as written, and units whose text
 * does not parse back (the prior must not absorb that failure); every figure is independent of
 * the order rows come in. Small folders, made once (the full suite on --domain all is
 * bench/audit-plants-55.ts; its plants are bench/plants-55.ts).
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CONTROLS_55, FAMILY_PLANTS, plant55, type Plant55 } from "../bench/plants-55.js";
import { formatAuditTable, runAudit, type AuditReport } from "../src/audit/index.js";
import { rawTokens } from "../src/audit/raw.js";
import { shownFeature } from "../src/audit/report.js";
import { writeDataset } from "../src/index.js";
import { fileTempDir } from "./temp-dir.js";

const tmp = fileTempDir("pddl2prm-audit-families-");
const DOMAINS = ["blocksworld", "ferry", "logistics"];
/** Problems per domain: a chain format has two units per problem, trl must show a planted parse failure beyond noise (60% of suboptimal rows), so more of them. */
const COUNT: Record<string, number> = { native: 8, trl: 40, verifier: 40 };
const clean = new Map<string, string>();

beforeAll(async () => {
  for (const [format, count] of Object.entries(COUNT)) {
    const out = join(tmp, `clean-${format}`);
    await writeDataset({ domain: DOMAINS, count, seed: 4242, workers: 1, out, format: format as "native" });
    clean.set(format, out);
  }
}, 600_000);

const plant = (name: string): Plant55 => [...FAMILY_PLANTS, ...CONTROLS_55].find((p) => p.name === name)!;
function planted(name: string): string {
  const p = plant(name);
  const dir = join(tmp, name.replace(/\W+/g, "-"));
  plant55(clean.get(p.format)!, dir, p);
  return dir;
}
const fails = (r: AuditReport): string[] => formatAuditTable(r).split("\n").filter((l) => l.startsWith("  FAIL "));

describe("the raw probe's tokens", () => {
  it("a word, the characters after it and the next word, at every place but one space between plain words", () => {
    expect(rawTokens("Step 2: Since car 1 is at location 3, the ferry sails.")).toEqual(["␂⟨⟩Step", "Step⟨ ⟩9", "9⟨: ⟩Since", "Since⟨ ⟩car", "9⟨, ⟩the", "sails⟨.⟩␃"]);
    // an Oxford comma, a zero-padded number, a capital, a no-break space: each its own token
    expect(rawTokens("x 1, and Y 07\u00a0z")).toEqual(["␂⟨⟩x", "9⟨, ⟩and", "and⟨ ⟩Y", "Y⟨ ⟩09", "09⟨\u00a0⟩z", "z⟨⟩␃"]);
  });

  it("a failed check shows invisible and look-alike characters escaped", () => {
    expect(shownFeature("r:9⟨:\u00a0⟩Since")).toBe('"r:9⟨:\\u00a0⟩Since"');
    expect(shownFeature("r:bl\u043eck⟨\n\n⟩b")).toBe('"r:bl\\u043eck⟨\\n\\n⟩b"');
  });
});

describe("audit on small folders (issue 55, second pass)", () => {
  it.each(Object.keys(COUNT))("clean %s passes", async (format) => {
    const r = await runAudit(clean.get(format)!);
    expect(r.pass, formatAuditTable(r)).toBe(true);
  }, 300_000);

  it("shuffling whole states changes no figure; shuffling the rows of each state none but the row-order rules'", async () => {
    const strip = (r: AuditReport, order: boolean): unknown => ({
      ...r,
      dir: "",
      rules: r.rules.filter((x) => order || !x.name.startsWith("row order")),
      best_rule: order ? r.best_rule : null,
      checks: r.checks.filter((c) => order || !c.name.startsWith("row order")),
    });
    const a = await runAudit(clean.get("native")!);
    const states = await runAudit(planted("shuffle-states"));
    expect(strip(states, true)).toEqual(strip(a, true));
    const rows = await runAudit(planted("shuffle-rows-of-each-state"));
    expect(rows.pass).toBe(a.pass);
    expect(strip(rows, false)).toEqual(strip(a, false));
  }, 300_000);

  it("capitals that break the step parser (trl): the raw form fails and names them, the prior does not absorb the failure", async () => {
    const r = await runAudit(planted("capital-nouns:trl"));
    expect(r.actions_parsed!.failed).toBeGreaterThan(0);
    const f = fails(r);
    expect(f.some((l) => /probe: raw form .*\[suboptimal\].*"r:[^"]*[A-Z][a-z]+⟨ ⟩9/.test(l)), f.join("\n")).toBe(true);
    // no other probe gains by knowing which steps failed to parse
    expect(f.filter((l) => l.includes("probe:") && !l.includes("raw form")), f.join("\n")).toEqual([]);
  }, 300_000);

  it("a free string field that marks a class is named as written", async () => {
    const f = fails(await runAudit(planted("field:source:native")));
    expect(f.some((l) => /raw form .*\[backtracking\].*"f:source=sampler-b"/.test(l)), f.join("\n")).toBe(true);
  }, 300_000);

  it("a no-break space after the marker is named, escaped", async () => {
    const f = fails(await runAudit(planted("nbsp-marker:native:optimal")));
    expect(f.some((l) => /raw form .*\[optimal\].*\\u00a0/.test(l)), f.join("\n")).toBe(true);
  }, 300_000);

  it("an Oxford comma in the steps of error chains (a lowercase word the old form hid)", async () => {
    const f = fails(await runAudit(planted("oxford-comma:verifier")));
    expect(f.some((l) => /raw form .*\[error\].*⟨, ⟩and/.test(l)), f.join("\n")).toBe(true);
  }, 300_000);
});
