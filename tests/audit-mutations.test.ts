/**
 * The audit's mutation suite: clean `--domain all --count 40` data of every format passes, and
 * every planted shortcut (tests/audit-plants.ts) fails with exit 1, on a check that names the
 * feature it planted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMATS as ALL_FORMATS } from "../src/dataset/formats.js";
import { PLANTS, plantInto } from "./audit-plants.js";
import { auditHeadline, CARD_AUDIT_ROWS, runAudit } from "../src/audit/index.js";
import { cliRunner } from "./cli-run.js";

/** rl rows are prompts without steps or labels: generate runs no audit on them (docs/rl.md). */
const FORMATS = ALL_FORMATS.filter((f) => f !== "rl");

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-audit-mutations-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = cliRunner(tmp);
const clean: Record<string, string> = {};
const errors: Record<string, string> = {};

beforeAll(async () => {
  for (const f of FORMATS) {
    const dir = join(tmp, `clean-${f}`);
    const r = await cli(["generate", "--domain", "all", "--count", "40", "--seed", "4242", "--format", f, "--out", dir, "--quiet"]);
    if (r.code === 0) clean[f] = dir;
    else errors[f] = r.stderr;
  }
}, 900_000);

function folder(f: string): string {
  const d = clean[f];
  if (d === undefined) throw new Error(`generate --format ${f} failed: ${errors[f]}`);
  return d;
}

describe("audit mutation suite (--domain all --count 40)", () => {
  it.each(FORMATS.map((f) => [f]))("clean %s data passes", async (f) => {
    const r = await cli(["audit", folder(f)]);
    expect(r.stdout).toMatch(/audit: pass$/m);
    expect(r.stdout).not.toMatch(/FAIL/);
    expect(r.code).toBe(0);
  }, 120_000);

  it.each(PLANTS.map((p) => [p.name, p]))("planted: %s fails with exit 1 and names the feature", async (_, plant) => {
    const dir = join(tmp, `plant-${plant.name.replace(/\W+/g, "-")}`);
    plantInto(folder(plant.format), dir, plant);
    const r = await cli(["audit", dir]);
    expect(r.code, `${plant.what}:\n${r.stdout}`).toBe(1);
    expect(r.stdout).toMatch(/audit: FAIL$/m);
    const lines = r.stdout.split("\n").filter((l) => l.startsWith("  FAIL ") && plant.check.test(l));
    expect(lines.length, `${plant.what}: no failed check matches ${String(plant.check)}:\n${r.stdout}`).toBeGreaterThan(0);
    if (plant.feature !== undefined) {
      // the probe's heaviest features, as printed: the planted one among them
      const named = lines.flatMap((l) => [...(/features: (.*)$/.exec(l)?.[1] ?? "").matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]!}"`) as string));
      expect(named.some((x) => plant.feature!.test(x)), `${plant.what}: features ${JSON.stringify(named)}`).toBe(true);
    }
  }, 120_000);

  it("the card's headline-only audit (no reported-only probes, no bootstrap for gains within the limit) gives the full audit's headline, pass and fail", async () => {
    const dirs = [folder("native"), folder("pairs"), folder("processbench")];
    for (const name of ["optimal '!'", "dead-end tag", "trajectory chosen side '!'"]) {
      const plant = PLANTS.find((p) => p.name === name)!;
      const dir = join(tmp, `headline-${name.replace(/\W+/g, "-")}`);
      plantInto(folder(plant.format), dir, plant);
      dirs.push(dir);
    }
    let failed = 0;
    for (const dir of dirs) {
      const full = auditHeadline(await runAudit(dir, { maxRows: CARD_AUDIT_ROWS }));
      const card = auditHeadline(await runAudit(dir, { maxRows: CARD_AUDIT_ROWS, headlineOnly: true }));
      expect(card, dir).toEqual(full);
      if (!full.pass) failed++;
    }
    // the plants fail at the card's sample too: both branches were compared
    expect(failed).toBeGreaterThan(0);
  }, 300_000);

  it("the suite covers every plant of issue 40 and those caught before", () => {
    expect(PLANTS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(PLANTS.map((p) => p.name)).size).toBe(PLANTS.length);
  });
});
