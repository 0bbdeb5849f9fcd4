/**
 * The reward server's placement of request lines (src/cli/serve-pool.ts): each problem has a home
 * worker, read from the raw line's domain and problem fields, so that one session's caches see all
 * of a problem's completions.
 */
import { describe, expect, it } from "vitest";
import { BUILTIN_DOMAINS } from "../src/generators/index.js";
import { homeOf } from "../src/cli/serve-pool.js";

const line = (o: Record<string, unknown>): string => JSON.stringify(o);

describe("serve pool: a problem's home worker", () => {
  it("depends on the domain and problem fields only, in either order", () => {
    for (const q of [2, 3, 8]) {
      const h = homeOf(line({ domain: "ferry", problem: "p0003", completion: "1. (board c1 l1)" }), q);
      expect(homeOf(line({ problem: "p0003", domain: "ferry", completion: "something else entirely" }), q)).toBe(h);
      expect(homeOf(line({ id: 7, domain: "ferry", completion: [{ role: "assistant", content: "x" }], problem: "p0003" }), q)).toBe(h);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThan(q);
    }
  });

  it("is not moved by a completion that writes the field names itself", () => {
    const plain = homeOf(line({ domain: "ferry", problem: "p0003", completion: "plan" }), 1 << 20);
    const posing = homeOf(line({ domain: "ferry", problem: "p0003", completion: 'my answer: {"problem": "p0009", "domain": "hanoi"}' }), 1 << 20);
    expect(posing).toBe(plain);
    // and a different problem does move it (the hash reads the fields)
    expect(homeOf(line({ domain: "ferry", problem: "p0009", completion: "plan" }), 1 << 20)).not.toBe(plain);
    expect(homeOf(line({ domain: "hanoi", problem: "p0003", completion: "plan" }), 1 << 20)).not.toBe(plain);
  });

  it("reads PDDL text given inline (its first 128 characters) and lines without the fields", () => {
    const d = "(define (domain tiny) (:requirements :strips) (:predicates (p)) (:action a :parameters () :precondition (p) :effect (not (p))))";
    const a = homeOf(line({ domain: d, problem: "(define (problem t1) (:domain tiny) (:init (p)) (:goal (not (p))))", completion: "(a)" }), 1 << 20);
    const b = homeOf(line({ domain: d, problem: "(define (problem t2) (:domain tiny) (:init (p)) (:goal (not (p))))", completion: "(a)" }), 1 << 20);
    expect(a).not.toBe(b);
    expect(homeOf("not json at all", 2)).toBeGreaterThanOrEqual(0);
    expect(homeOf("{}", 2)).toBeLessThan(2);
  });

  it("spreads the built-in problems over the workers", () => {
    for (const q of [2, 4]) {
      const counts = new Array<number>(q).fill(0);
      for (const domain of BUILTIN_DOMAINS) for (let p = 1; p <= 10; p++) counts[homeOf(line({ domain, problem: `p${String(p).padStart(4, "0")}`, completion: "" }), q)]!++;
      const n = BUILTIN_DOMAINS.length * 10;
      // no worker gets less than half its share
      for (const c of counts) expect(c).toBeGreaterThanOrEqual(n / q / 2);
    }
  });
});
