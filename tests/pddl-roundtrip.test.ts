import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem, printDomain, printProblem, type Domain } from "../src/pddl/index.js";

/**
 * Deep copy without `loc`, `file` and `spelling` fields (positions legitimately change when
 * printing; names are printed lower-case, so the spelling as written is not kept).
 */
function strip(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(strip);
  if (x !== null && typeof x === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) if (k !== "loc" && k !== "file" && k !== "spelling") out[k] = strip(v);
    return out;
  }
  return x;
}

function roundTripDomain(text: string, file: string): Domain {
  const d = parseDomain(text, file);
  const printed = printDomain(d);
  const d2 = parseDomain(printed, "printed.pddl");
  expect(strip(d2)).toEqual(strip(d));
  // printing is a fixed point after one round
  expect(printDomain(d2)).toBe(printed);
  return d;
}

function roundTripProblem(text: string, file: string, d: Domain): void {
  const p = parseProblem(text, file, d);
  const printed = printProblem(p);
  const p2 = parseProblem(printed, "printed.pddl", d);
  expect(strip(p2)).toEqual(strip(p));
  expect(printProblem(p2)).toBe(printed);
}

const F = "tests/fixtures/pddl/";

describe("print/parse round trip", () => {
  it("fixtures (every construct)", () => {
    const d = roundTripDomain(readFileSync(F + "adl-domain.pddl", "utf8"), "adl");
    roundTripProblem(readFileSync(F + "adl-problem.pddl", "utf8"), "adl-p", d);
    const b = roundTripDomain(readFileSync(F + "blocks-domain.pddl", "utf8"), "b");
    roundTripProblem(readFileSync(F + "blocks-p1.pddl", "utf8"), "b-p", b);
  });

  it("the printed text is valid, readable PDDL", () => {
    const d = parseDomain(readFileSync(F + "adl-domain.pddl", "utf8"), "adl");
    const text = printDomain(d);
    expect(text).toContain("(:action drive");
    expect(text).toContain("hybrid - (either truck cargo)");
    expect(text).toContain("(increase (total-cost) (dist ?from ?to))");
    expect(text).toContain("(:derived (reachable ?p - place)");
  });

  it("shipped domains and problems", () => {
    let count = 0;
    for (const name of existsSync("domains") ? readdirSync("domains") : []) {
      const df = join("domains", name, "domain.pddl");
      if (!existsSync(df)) continue;
      const d = roundTripDomain(readFileSync(df, "utf8"), df);
      count++;
      const pdir = join("problems", name);
      const probs = existsSync(pdir) ? readdirSync(pdir).filter((f) => f.endsWith(".pddl")).sort().slice(0, 3) : [];
      for (const f of probs) roundTripProblem(readFileSync(join(pdir, f), "utf8"), f, d);
    }
    expect(count).toBeGreaterThan(0);
  });
});
