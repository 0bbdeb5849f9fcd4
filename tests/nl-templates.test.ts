import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../src/pddl/errors.js";
import { parseDomain } from "../src/pddl/index.js";
import { compileTemplates, loadTemplates, loadTemplatesFile, NlJsonSchema } from "../src/nl/index.js";
import { placeholders } from "../src/nl/text.js";
import { builtinDomain, DOMAINS, ROOT } from "./nl-helpers.js";
import { testTempDir } from "./temp-dir.js";

describe("built-in nl.json", () => {
  for (const name of DOMAINS) {
    it(`${name}: valid, complete, >= 3 paraphrases for intro and every action`, () => {
      const raw = JSON.parse(readFileSync(join(ROOT, "domains", name, "nl.json"), "utf8"));
      expect(NlJsonSchema.safeParse(raw).success).toBe(true);
      const t = loadTemplates(name);
      expect(t).not.toBeNull();
      const domain = builtinDomain(name);
      expect(t!.generic).toBe(false);
      expect(t!.intro.length).toBeGreaterThanOrEqual(3);
      for (const p of domain.predicates) {
        const pt = t!.predicates.get(p.name);
        expect(pt, `predicate ${p.name}`).toBeDefined();
        expect(pt!.pos.length).toBeGreaterThanOrEqual(1);
        expect(pt!.neg.length).toBeGreaterThanOrEqual(1);
      }
      for (const a of domain.actions) {
        const at = t!.actions.get(a.name);
        expect(at, `action ${a.name}`).toBeDefined();
        expect(at!.text.length).toBeGreaterThanOrEqual(3);
        // Paraphrases of one action are distinct texts.
        expect(new Set(at!.text.map((c) => c.source)).size).toBe(at!.text.length);
      }
      // Every type that has objects is named by an entry of its own or of a supertype.
      for (const ty of domain.types) {
        let cur: string | undefined = ty.name;
        const chain: string[] = [];
        while (cur !== undefined && cur !== "object") {
          chain.push(cur);
          cur = domain.types.find((x) => x.name === cur)?.parents[0];
        }
        const leaf = !domain.types.some((x) => x.parents.includes(ty.name));
        if (leaf) expect(chain.some((c) => t!.types.has(c)), `type ${ty.name}`).toBe(true);
      }
    });
  }

  it("loadTemplates of an unknown domain is null", () => {
    expect(loadTemplates("no-such-domain")).toBeNull();
    expect(loadTemplates("../etc")).toBeNull();
  });
});

const DOMAIN = parseDomain(
  `(define (domain tiny) (:requirements :strips :typing) (:types box room)
     (:predicates (in ?b - box ?r - room) (open ?r - room))
     (:action carry :parameters (?b - box ?from - room ?to - room)
       :precondition (and (in ?b ?from) (open ?to))
       :effect (and (in ?b ?to) (not (in ?b ?from)))))`,
  "tiny.pddl",
);

function good(): Record<string, unknown> {
  return {
    intro: ["Boxes are carried between rooms.", "Rooms hold boxes.", "I carry boxes."],
    types: { box: { noun: "box", plural: "boxes", match: "^b(?<n>\\d+)$", phrase: "box {n}" } },
    predicates: {
      in: { true: ["{b} is in {r}"], false: ["{b} is not in {r}"] },
      open: { true: ["{r} is open"], false: ["{r} is closed"] },
    },
    actions: { carry: ["carry {b} from {from} to {to}", "move {b} from {from} into {to}", "take {b} out of {from} to {to}"] },
    goal: ["The goal: {goal}."],
    instruction: ["Go."],
  };
}

function errorOf(raw: unknown): string {
  try {
    compileTemplates(raw, DOMAIN, "my/nl.json");
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error("expected a UserError");
}

describe("template errors name the file, the key path and the culprit", () => {
  it("accepts a good file", () => {
    const t = compileTemplates(good(), DOMAIN, "my/nl.json");
    expect(t.actions.get("carry")!.text).toHaveLength(3);
  });

  it("unknown top-level key", () => {
    expect(errorOf({ ...good(), colour: "red" })).toBe("my/nl.json: (top level): unknown key 'colour'");
  });

  it("unknown key inside a predicate entry", () => {
    const g = good();
    (g.predicates as Record<string, Record<string, unknown>>).in!.maybe = ["x"];
    expect(errorOf(g)).toBe("my/nl.json: predicates.in: unknown key 'maybe'");
  });

  it("unknown placeholder in a predicate template", () => {
    const g = good();
    (g.predicates as Record<string, Record<string, unknown>>).in!.false = ["{b} is not in {room}"];
    expect(errorOf(g)).toBe("my/nl.json: predicates.in.false[0]: unknown placeholder {room} (allowed: {b}, {r})");
  });

  it("unknown placeholder in an action template", () => {
    const g = good();
    (g.actions as Record<string, string[]>).carry![2] = "take {box} from {from} to {to}";
    expect(errorOf(g)).toMatch(/^my\/nl\.json: actions\.carry\[2\]: unknown placeholder \{box\} \(allowed: \{b\}, \{from\}, \{to\}\)$/);
  });

  it("action template missing or repeating a parameter", () => {
    const g = good();
    (g.actions as Record<string, string[]>).carry![1] = "move {b} into {to}";
    expect(errorOf(g)).toBe("my/nl.json: actions.carry[1]: placeholder {from} is missing (every parameter of carry must appear once)");
    (g.actions as Record<string, string[]>).carry![1] = "move {b} from {from} into {to} and {to}";
    expect(errorOf(g)).toMatch(/actions\.carry\[1\]: placeholder \{to\} appears 2 times/);
  });

  it("unknown predicate, action and type", () => {
    const g1 = good();
    (g1.predicates as Record<string, unknown>).closed = { true: ["x"], false: ["y"] };
    expect(errorOf(g1)).toMatch(/^my\/nl\.json: predicates\.closed: unknown predicate 'closed'/);
    const g2 = good();
    (g2.actions as Record<string, unknown>).jump = ["a", "b", "c"];
    expect(errorOf(g2)).toMatch(/^my\/nl\.json: actions\.jump: unknown action 'jump'/);
    const g3 = good();
    (g3.types as Record<string, unknown>).crate = { noun: "crate" };
    expect(errorOf(g3)).toMatch(/^my\/nl\.json: types\.crate: unknown type 'crate'/);
  });

  it("unknown placeholder in a type phrase, bad regex, unbalanced brace", () => {
    const g = good();
    (g.types as Record<string, Record<string, unknown>>).box!.phrase = "box {num}";
    expect(errorOf(g)).toBe("my/nl.json: types.box.phrase: unknown placeholder {num} (allowed: {name}, {n})");
    (g.types as Record<string, Record<string, unknown>>).box!.match = "^b(";
    expect(errorOf(g)).toMatch(/^my\/nl\.json: types\.box\.match: bad regular expression/);
    const h = good();
    (h.predicates as Record<string, Record<string, unknown>>).open!.true = ["{r is open"];
    expect(errorOf(h)).toMatch(/^my\/nl\.json: predicates\.open\.true\[0\]: unbalanced '\{'/);
  });

  it("too few paraphrases, wrong value types, missing keys", () => {
    expect(errorOf({ ...good(), intro: ["only one"] })).toBe("my/nl.json: intro: needs at least three paraphrases");
    expect(errorOf({ ...good(), actions: { carry: ["carry {b} from {from} to {to}"] } })).toBe(
      "my/nl.json: actions.carry: needs at least three paraphrases",
    );
    expect(errorOf({ ...good(), goal: "The goal: {goal}." })).toMatch(/^my\/nl\.json: goal: Expected array/);
    const { instruction: _drop, ...rest } = good();
    expect(errorOf(rest)).toBe("my/nl.json: instruction: Required");
  });

  it("goal placeholder and domain name are checked", () => {
    expect(errorOf({ ...good(), goal: ["Reach {target}."] })).toBe("my/nl.json: goal[0]: unknown placeholder {target} (allowed: {goal})");
    expect(errorOf({ ...good(), domain: "other" })).toBe("my/nl.json: domain: written for domain 'other', but the domain is 'tiny'");
  });

  it("every template uses the placeholders that carry its meaning", () => {
    expect(errorOf({ ...good(), goal: ["The goal: reach it.", "The goal: {goal}."] })).toBe("my/nl.json: goal[0]: placeholder {goal} is missing");
    const p = good();
    (p.predicates as Record<string, Record<string, unknown>>).in!.false = ["{b} is elsewhere"];
    expect(errorOf(p)).toBe("my/nl.json: predicates.in.false[0]: placeholder {r} is missing");
    const t = good();
    (t.types as Record<string, Record<string, unknown>>).box!.phrase = "a box";
    expect(errorOf(t)).toBe("my/nl.json: types.box.phrase: needs one of the placeholders {name}, {n} (else every object reads the same)");
    (t.types as Record<string, Record<string, unknown>>).box!.phrase = "box {n}";
    (t.types as Record<string, Record<string, unknown>>).box!.fallback = "some box";
    expect(errorOf(t)).toBe("my/nl.json: types.box.fallback: placeholder {name} is missing");
    const g = good();
    const inEntry = (g.predicates as Record<string, Record<string, unknown>>).in!;
    inEntry.static = { over: "r", text: ["{b} is somewhere"] };
    expect(errorOf(g)).toBe("my/nl.json: predicates.in.static.text[0]: needs one of the placeholders {items}, {r} (else every object reads the same)");
    inEntry.static = { over: "r", text: ["{items} hold a box"] };
    expect(errorOf(g)).toBe("my/nl.json: predicates.in.static.text[0]: placeholder {b} is missing");
    inEntry.static = { over: "r", text: ["{b} is in {items}"] };
    expect(compileTemplates(g, DOMAIN, "my/nl.json").predicates.get("in")!.grouped).toHaveLength(1);
  });

  it("a missing action or predicate is an error unless genericFallback", () => {
    const a = good();
    delete (a.actions as Record<string, unknown>).carry;
    expect(errorOf(a)).toBe("my/nl.json: actions: no template for action 'carry' (add one, or pass --generic-fallback for text derived from PDDL names)");
    expect(compileTemplates(a, DOMAIN, "my/nl.json", { genericFallback: true }).actions.has("carry")).toBe(false);
    const p = good();
    delete (p.predicates as Record<string, unknown>).open;
    expect(errorOf(p)).toMatch(/^my\/nl\.json: predicates: no template for predicate 'open'/);
    expect(compileTemplates(p, DOMAIN, "my/nl.json", { genericFallback: true }).predicates.has("open")).toBe(false);
  });

  it("an action text may not contain a period (it ends the action clause)", () => {
    const g = good();
    (g.actions as Record<string, string[]>).carry![0] = "carry {b} from {from} to {to} etc.";
    expect(errorOf(g)).toBe("my/nl.json: actions.carry[0]: an action text must not contain '.'");
  });

  it("loadTemplatesFile: missing file and invalid JSON are UserErrors naming the file", () => {
    const dir = testTempDir("nl-");
    expect(() => loadTemplatesFile(join(dir, "none.json"), DOMAIN)).toThrow(/none\.json: no such file/);
    writeFileSync(join(dir, "bad.json"), "{ intro: ");
    expect(() => loadTemplatesFile(join(dir, "bad.json"), DOMAIN)).toThrow(/bad\.json: invalid JSON/);
    writeFileSync(join(dir, "ok.json"), JSON.stringify(good()));
    expect(loadTemplatesFile(join(dir, "ok.json"), DOMAIN).file).toBe(join(dir, "ok.json"));
  });
});

describe("placeholders()", () => {
  it("lists names and rejects unbalanced braces", () => {
    expect(placeholders("{x} is on {Y}")).toEqual(["x", "y"]);
    expect(() => placeholders("a } b")).toThrow(/unbalanced '\}'/);
    expect(() => placeholders("{a {b}")).toThrow(/unbalanced '\{'/);
    expect(() => placeholders("{}")).toThrow(/empty placeholder/);
  });
});
