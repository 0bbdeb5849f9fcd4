import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../src/pddl/errors.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { compileTemplates, createRenderer, loadTemplates, loadTemplatesFile, NlJsonSchema } from "../src/nl/index.js";
import { scaffoldTemplates } from "../src/nl/scaffold.js";
import { ground } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
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

  it("action template missing a parameter is an error; one that repeats a parameter is read back consistently", () => {
    const g = good();
    (g.actions as Record<string, string[]>).carry![1] = "move {b} into {to}";
    expect(errorOf(g)).toBe("my/nl.json: actions.carry[1]: placeholder {from} is missing (every parameter of carry must appear)");
    (g.actions as Record<string, string[]>).carry![1] = "move {b} from {from} into {to}, that is into {to}";
    expect(() => compileTemplates(g, DOMAIN, "my/nl.json")).not.toThrow();
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

// Two actions and several predicates over the same types, for the "reads alike" checks.
const DOMAIN2 = parseDomain(
  `(define (domain tiny2) (:requirements :strips :typing) (:types box room)
     (:predicates (in ?b - box ?r - room) (open ?r - room) (lit ?r - room) (near ?r1 - room ?r2 - room))
     (:action carry :parameters (?b - box ?from - room ?to - room)
       :precondition (and (in ?b ?from) (open ?to))
       :effect (and (in ?b ?to) (not (in ?b ?from))))
     (:action push :parameters (?b - box ?from - room ?to - room)
       :precondition (and (in ?b ?from) (lit ?to))
       :effect (and (in ?b ?to) (not (in ?b ?from)))))`,
  "tiny2.pddl",
);

function good2(): { intro: string[]; predicates: Record<string, { true: string[]; false: string[] }>; actions: Record<string, string[]>; goal: string[]; instruction: string[] } {
  return {
    intro: ["Boxes are moved between rooms.", "Rooms hold boxes.", "I move boxes."],
    predicates: {
      in: { true: ["{b} is in {r}"], false: ["{b} is not in {r}"] },
      open: { true: ["{r} is open"], false: ["{r} is closed"] },
      lit: { true: ["{r} is lit"], false: ["{r} is dark"] },
      near: { true: ["{r1} is near {r2}"], false: ["{r1} is far from {r2}"] },
    },
    actions: {
      carry: ["carry {b} from {from} to {to}", "move {b} from {from} into {to}", "take {b} out of {from} to {to}"],
      push: ["push {b} from {from} to {to}", "shove {b} from {from} into {to}", "push {b} out of {from} to {to}"],
    },
    goal: ["The goal: {goal}."],
    instruction: ["Go."],
  };
}

function error2(raw: unknown): string {
  try {
    compileTemplates(raw, DOMAIN2, "my/nl.json");
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error("expected a UserError");
}

describe("texts that read alike are rejected, naming both keys and both texts", () => {
  it("accepts distinct texts, and a repeated paraphrase of one entry", () => {
    const g = good2();
    g.actions.carry![2] = g.actions.carry![0]!;
    expect(compileTemplates(g, DOMAIN2, "my/nl.json").actions.get("carry")!.text).toHaveLength(3);
  });

  it("two paraphrases of one action that swap parameters of a common type", () => {
    const g = good2();
    g.actions.carry![1] = "carry {b} from {to} to {from}";
    const msg = error2(g);
    expect(msg).toMatch(/^my\/nl\.json: /);
    expect(msg).toContain('actions.carry[0] "carry {b} from {from} to {to}"');
    expect(msg).toContain('actions.carry[1] "carry {b} from {to} to {from}"');
    expect(msg).toContain("read alike");
    expect(msg).toContain("{from}, {to}");
  });

  it("parameters of types that share no object may trade places", () => {
    const g = good2();
    g.predicates.in = { true: ["{b} and {r} meet", "{r} and {b} meet"], false: ["{b} is not in {r}"] };
    expect(compileTemplates(g, DOMAIN2, "my/nl.json").predicates.get("in")!.pos).toHaveLength(2);
  });

  it("two different actions with the same text", () => {
    const g = good2();
    g.actions.push![1] = "move {b} from {from} into {to}";
    const msg = error2(g);
    expect(msg).toContain('actions.carry[1] "move {b} from {from} into {to}"');
    expect(msg).toContain('actions.push[1] "move {b} from {from} into {to}"');
    expect(msg).toContain("action carry and action push would get the same step text");
  });

  it("two predicates, or a predicate's true and false texts, that read alike", () => {
    const g = good2();
    g.predicates.lit!.false = ["{r} is closed"];
    const msg = error2(g);
    expect(msg).toContain('predicates.open.false[0] "{r} is closed"');
    expect(msg).toContain('predicates.lit.false[0] "{r} is closed"');
    const h = good2();
    h.predicates.open!.false = ["{r} is closed", "{r} is open"];
    expect(error2(h)).toContain('predicates.open.true[0] "{r} is open" and predicates.open.false[1] "{r} is open" read alike: a fact and its negation');
    const k = good2();
    k.predicates.near!.false = ["{r2} is near {r1}"];
    expect(error2(k)).toContain('predicates.near.true[0] "{r1} is near {r2}" and predicates.near.false[0] "{r2} is near {r1}" read alike');
  });

  it("the check sees supertypes and either types", () => {
    const d = parseDomain(
      `(define (domain tiny3) (:requirements :strips :typing) (:types box crate - thing thing room)
         (:predicates (in ?b - box ?r - room) (on ?t - (either crate room) ?r - room) (at ?c - thing ?r - room))
         (:action noop :parameters () :effect (and)))`,
      "tiny3.pddl",
    );
    const raw = (inText: string, onText: string, atText: string) => ({
      intro: ["a", "b", "c"],
      predicates: {
        in: { true: [inText], false: ["{b} is not in {r}"] },
        on: { true: [onText], false: ["{t} is not on {r}"] },
        at: { true: [atText], false: ["{c} is not at {r}"] },
      },
      actions: { noop: ["wait", "pause", "rest"] },
      goal: ["{goal}"],
      instruction: ["Go."],
    });
    const err = (...xs: [string, string, string]): string => {
      try {
        compileTemplates(raw(...xs), d, "x.json");
      } catch (e) {
        return (e as Error).message;
      }
      return "accepted";
    };
    // a box is neither a crate nor a room: the same words are fine
    expect(err("{b} sits in {r}", "{t} sits in {r}", "{c} is at {r}")).toBe("accepted");
    // a box is a thing (supertype)
    expect(err("{b} sits in {r}", "{t} is on {r}", "{c} sits in {r}")).toMatch(/^x\.json: predicates\.in\.true\[0\] "\{b\} sits in \{r\}" and predicates\.at\.true\[0\] "\{c\} sits in \{r\}" read alike/);
    // a crate is a thing, and on takes crates (either)
    expect(err("{b} is in {r}", "{t} is on {r}", "{c} is on {r}")).toMatch(/predicates\.on\.true\[0\] "\{t\} is on \{r\}" and predicates\.at\.true\[0\] "\{c\} is on \{r\}" read alike/);
  });
});

describe("intro: {rules} is its only placeholder, and follows the current texts", () => {
  it("an unknown placeholder, a repeated {rules} or an unbalanced brace is an error", () => {
    expect(errorOf({ ...good(), intro: ["Rules: {rules}", "Boxes: {boxes}", "c"] })).toBe(
      "my/nl.json: intro[1]: unknown placeholder {boxes} (an intro may use only {rules}, the rules written from the action schemas)",
    );
    expect(errorOf({ ...good(), intro: ["{rules} and {rules}", "b", "c"] })).toBe("my/nl.json: intro[0]: placeholder {rules} appears 2 times (use it once)");
    expect(errorOf({ ...good(), intro: ["a", "b", "rules}"] })).toMatch(/^my\/nl\.json: intro\[2\]: unbalanced '\}'/);
    expect(compileTemplates({ ...good(), intro: ["Rules:\n{ Rules }", "b", "c"] }, DOMAIN, "my/nl.json").intro[0]).toBe("Rules:\n{rules}");
  });

  it("{rules} expands to the rules written with the file's own action and predicate texts", () => {
    const problem = parseProblem(
      `(define (problem p) (:domain tiny) (:objects b1 - box r1 r2 - room) (:init (in b1 r1) (open r2)) (:goal (in b1 r2)))`,
      "p.pddl",
      DOMAIN,
    );
    const task = ground(DOMAIN, problem);
    const g = good();
    g.intro = ["Rules of the house:\n{rules}", "Rules of the house:\n{rules}", "Rules of the house:\n{rules}"];
    (g.actions as Record<string, string[]>).carry![0] = "haul {b} out of {from} over to {to}";
    (g.predicates as Record<string, Record<string, string[]>>).open!.true = ["the door of {r} stands wide open"];
    const prompt = createRenderer(task, compileTemplates(g, DOMAIN, "my/nl.json")).prompt(new Prng(1, "t"));
    const intro = prompt.split("\n\n")[0]!;
    expect(intro.startsWith("Rules of the house:\n- To haul ")).toBe(true);
    expect(intro).toMatch(/^- To haul box \S+ out of room \S+ over to room \S+: it requires that .*the door of .* stands wide open/m);
    expect(prompt).not.toContain("{rules}");
    expect(prompt).not.toContain("These are the actions");
    // an intro without {rules} is used as written
    const plain = createRenderer(task, compileTemplates(good(), DOMAIN, "my/nl.json")).prompt(new Prng(1, "t"));
    expect(["Boxes are carried between rooms.", "Rooms hold boxes.", "I carry boxes."]).toContain(plain.split("\n\n")[0]);
  });

  it("templates init writes intros with {rules}", () => {
    const intro = scaffoldTemplates(DOMAIN).intro;
    expect(intro).toHaveLength(3);
    for (const t of intro) expect(t).toMatch(/^[^\n]*"tiny"[^\n]*\n\{rules\}$/);
  });
});
