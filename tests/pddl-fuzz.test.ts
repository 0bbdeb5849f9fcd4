import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem, PddlError } from "../src/pddl/index.js";

const F = "tests/fixtures/pddl/";
const DOMAIN = readFileSync(F + "adl-domain.pddl", "utf8");
const PROBLEM = readFileSync(F + "adl-problem.pddl", "utf8");
const domain = parseDomain(DOMAIN, "d");

/** Tokens and the whitespace between them, so mutations can work on whole tokens. */
function pieces(text: string): string[] {
  return text.match(/[()]|\s+|[^()\s]+/g) ?? [];
}

type Mutation =
  | { kind: "delete-paren"; at: number }
  | { kind: "double-paren"; at: number }
  | { kind: "swap"; at: number }
  | { kind: "drop"; at: number }
  | { kind: "truncate"; at: number }
  | { kind: "bytes"; at: number; bytes: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete-paren" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("double-paren" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swap" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("bytes" as const),
    at: fc.nat(),
    bytes: fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: "binary", maxLength: 6 }), fc.constantFrom("(", ")", "-", "?", ":", "=", " (either", "(and", "\u0000", "1e9")),
  }),
);

function apply(text: string, m: Mutation): string {
  const ps = pieces(text);
  if (ps.length === 0) return text;
  const parens = ps.map((p, i) => (p === "(" || p === ")" ? i : -1)).filter((i) => i >= 0);
  const toks = ps.map((p, i) => (/^\s+$/.test(p) ? -1 : i)).filter((i) => i >= 0);
  switch (m.kind) {
    case "delete-paren":
      if (parens.length > 0) ps.splice(parens[m.at % parens.length]!, 1);
      break;
    case "double-paren":
      if (parens.length > 0) { const i = parens[m.at % parens.length]!; ps.splice(i, 0, ps[i]!); }
      break;
    case "swap":
      if (toks.length > 1) {
        const k = m.at % (toks.length - 1);
        const [i, j] = [toks[k]!, toks[k + 1]!];
        [ps[i], ps[j]] = [ps[j]!, ps[i]!];
      }
      break;
    case "drop":
      ps.splice(toks[m.at % toks.length]!, 1);
      break;
    case "truncate":
      return text.slice(0, m.at % (text.length + 1));
    case "bytes": {
      const pos = m.at % (text.length + 1);
      return text.slice(0, pos) + m.bytes + text.slice(pos);
    }
  }
  return ps.join("");
}

/** Parsing may succeed or throw a PddlError with a sane position; nothing else. */
function onlyPddlErrors(run: () => unknown): void {
  try {
    run();
  } catch (e) {
    if (!(e instanceof PddlError)) throw e;
    expect(e.line).toBeGreaterThanOrEqual(1);
    expect(e.column).toBeGreaterThanOrEqual(1);
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.format()).toMatch(/^\S+:\d+:\d+: error: /);
  }
}

describe("fuzz: mutated PDDL only ever raises PddlError", () => {
  it("domains", () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        const text = ms.reduce(apply, DOMAIN);
        onlyPddlErrors(() => parseDomain(text, "fuzz-domain.pddl"));
      }),
      { numRuns: 400, seed: 42 },
    );
  });

  it("problems (checked against the domain)", () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        const text = ms.reduce(apply, PROBLEM);
        onlyPddlErrors(() => parseProblem(text, "fuzz-problem.pddl", domain));
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it("arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        onlyPddlErrors(() => parseDomain(s, "x"));
        onlyPddlErrors(() => parseProblem(s, "x", domain));
      }),
      { numRuns: 300, seed: 1 },
    );
  });

  it("mutations are not no-ops (the property can fail)", () => {
    // Most single mutations must break the file: guards against a mutator that changes nothing.
    let broken = 0;
    for (let i = 0; i < 50; i++) {
      const text = apply(DOMAIN, { kind: "delete-paren", at: i * 7 });
      try { parseDomain(text, "x"); } catch { broken++; }
    }
    expect(broken).toBe(50);
  });
});
