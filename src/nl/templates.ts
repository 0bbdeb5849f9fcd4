import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ZodIssue } from "zod";
import type { Domain } from "../pddl/ast.js";
import { UserError } from "../pddl/errors.js";
import { parseDomain } from "../pddl/index.js";
import { supertypesOf } from "../pddl/types.js";
import { packageRoot } from "../util/paths.js";
import { pluralOf } from "./lexicon.js";
import { NlJsonSchema, type NlJson } from "./schema.js";
import { compile, normalizeSpace, paramNames, placeholders, TemplateSyntaxError, words, type Compiled } from "./text.js";
import { twinBase } from "./twins.js";

/** Compiled naming of the objects of one type. */
export interface TypeTemplate {
  noun: string;
  plural: string;
  /** Name of the only object of this type, or null. */
  single: string | null;
  match: RegExp | null;
  /** Used (with `{name}`) when `match` does not match; null means "<noun> <name>". */
  fallback: Compiled | null;
  /** Compiled against `phraseNames` (`name` first, then the named groups of `match`). */
  phrase: Compiled;
  phraseNames: string[];
}

/** Compiled templates of one predicate; slots index the predicate's parameters. */
export interface PredicateTemplate {
  params: string[];
  pos: Compiled[];
  neg: Compiled[];
  /** Parameter indexes that vary inside one group of static facts (default: the last). */
  groupOver: number[];
  /** Per-fact item of a group, compiled against `params` (null: the one `groupOver` object). */
  item: Compiled[] | null;
  /** Group sentence, compiled against `[...params, "items"]`; null: the `pos` templates. */
  grouped: Compiled[] | null;
  /** True for text the generic translator made (from PDDL names), not a templates file. */
  generic?: boolean;
  /** True for generic text that is the plain reading (the relation named, its arguments in order). */
  plain?: boolean;
}

/** Compiled what-I-do templates of one action; slots index the action's parameters. */
export interface ActionTemplate {
  params: string[];
  text: Compiled[];
}

/** Validated, compiled templates of a domain (from nl.json, or generic from PDDL names). */
export interface NlTemplates {
  domainName: string;
  /** The nl.json path, or null for generic templates. */
  file: string | null;
  generic: boolean;
  /**
   * The domain's rules in prose, one per paraphrase. `{rules}` (the only placeholder allowed)
   * stands for the rules the renderer writes from the action schemas with these templates.
   */
  intro: string[];
  types: Map<string, TypeTemplate>;
  predicates: Map<string, PredicateTemplate>;
  actions: Map<string, ActionTemplate>;
  /** Compiled against ["goal"]. */
  goal: Compiled[];
  instruction: string[];
}

function zodMessage(file: string, issue: ZodIssue): string {
  const path = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
  if (issue.code === "unrecognized_keys") {
    return `${file}: ${path}: unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
  }
  return `${file}: ${path}: ${issue.message}`;
}

/** Options of `compileTemplates` and `loadTemplatesFile`. */
export interface TemplateOptions {
  /**
   * Let actions and predicates without an entry get generic text from their PDDL names;
   * otherwise a missing entry is an error (default), so no text is generic by accident.
   */
  genericFallback?: boolean;
}

/**
 * Validate raw JSON against the schema and the domain, and compile it. Throws a UserError naming
 * the file, the key path and the bad placeholder/key. Every template must use the placeholders
 * that carry its meaning (`{goal}`, each parameter of a predicate or action, an object's name),
 * and every action and predicate of the domain needs an entry unless `genericFallback`. No two
 * action texts, and no two predicate texts, may read alike (see `checkCollisions`); an intro may
 * use `{rules}` and no other placeholder.
 */
export function compileTemplates(raw: unknown, domain: Domain, file: string, options: TemplateOptions = {}): NlTemplates {
  const parsed = NlJsonSchema.safeParse(raw);
  if (!parsed.success) throw new UserError(zodMessage(file, parsed.error.issues[0]!));
  const json: NlJson = parsed.data;
  const fail = (path: string, msg: string): never => {
    throw new UserError(`${file}: ${path}: ${msg}`);
  };
  const comp = (src: string, names: readonly string[], path: string, required: readonly string[] = []): Compiled => {
    let c: Compiled;
    try {
      c = compile(src, names);
    } catch (e) {
      if (e instanceof TemplateSyntaxError) return fail(path, e.message);
      throw e;
    }
    // a placeholder left out loses what the text is about (the goal, an argument)
    for (const r of required) if (!c.slots.includes(names.indexOf(r))) fail(path, `placeholder {${r}} is missing`);
    return c;
  };
  /** A template that must name one of `any` (e.g. an object's name or a group of `match`). */
  const compAny = (src: string, names: readonly string[], path: string, any: readonly string[]): Compiled => {
    const c = comp(src, names, path);
    if (!any.some((n) => c.slots.includes(names.indexOf(n)))) fail(path, `needs one of the placeholders ${any.map((n) => `{${n}}`).join(", ")} (else every object reads the same)`);
    return c;
  };
  if (json.domain !== undefined && json.domain.toLowerCase() !== domain.name) {
    fail("domain", `written for domain '${json.domain}', but the domain is '${domain.name}'`);
  }
  const intro = json.intro.map((t, i) => introText(t, `intro[${i}]`, fail));

  const typeNames = new Set(["object", ...domain.types.map((t) => t.name)]);
  const types = new Map<string, TypeTemplate>();
  for (const [key, e] of Object.entries(json.types)) {
    const t = key.toLowerCase();
    const path = `types.${key}`;
    if (!typeNames.has(t)) fail(path, `unknown type '${key}' (types of ${domain.name}: ${[...typeNames].join(", ")})`);
    let match: RegExp | null = null;
    const names = ["name"];
    if (e.match !== undefined) {
      try {
        match = new RegExp(e.match);
      } catch (err) {
        fail(`${path}.match`, `bad regular expression: ${(err as Error).message}`);
      }
      const groups = e.match.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g);
      for (const g of groups) names.push(g[1]!.toLowerCase());
    }
    const noun = normalizeSpace(e.noun ?? words(t));
    types.set(t, {
      noun,
      plural: normalizeSpace(e.plural ?? pluralOf(noun)),
      single: e.single !== undefined ? normalizeSpace(e.single) : null,
      match,
      fallback: e.fallback !== undefined ? comp(e.fallback, ["name"], `${path}.fallback`, ["name"]) : null,
      phrase: compAny(e.phrase ?? `${noun} {name}`, names, `${path}.phrase`, names),
      phraseNames: names,
    });
  }

  const predicates = new Map<string, PredicateTemplate>();
  for (const [key, e] of Object.entries(json.predicates)) {
    const name = key.toLowerCase();
    const decl = domain.predicates.find((p) => p.name === name);
    const path = `predicates.${key}`;
    if (decl === undefined) {
      fail(path, `unknown predicate '${key}' (predicates of ${domain.name}: ${domain.predicates.map((p) => p.name).join(", ")})`);
      continue;
    }
    const params = paramNames(decl.params);
    let groupOver = params.length > 0 ? [params.length - 1] : [];
    let item: Compiled[] | null = null;
    let grouped: Compiled[] | null = null;
    if (e.static !== undefined) {
      if (e.static.over !== undefined) {
        const over = typeof e.static.over === "string" ? [e.static.over] : e.static.over;
        groupOver = over.map((o) => {
          const i = params.indexOf(o.replace(/^\?/, "").toLowerCase());
          if (i < 0) fail(`${path}.static.over`, `unknown parameter '${o}' (parameters of ${name}: ${params.join(", ") || "none"})`);
          return i;
        });
      }
      if (groupOver.length === 0) fail(`${path}.static`, `${name} has no parameters to group over`);
      const overNames = groupOver.map((i) => params[i]!);
      const fixed = params.filter((_, i) => !groupOver.includes(i));
      if (e.static.item !== undefined) item = e.static.item.map((s, i) => comp(s, params, `${path}.static.item[${i}]`, overNames));
      else if (groupOver.length > 1) fail(`${path}.static.item`, "needed when grouping over several parameters");
      grouped = e.static.text.map((s, i) => {
        const at = `${path}.static.text[${i}]`;
        const names = [...params, "items"];
        comp(s, names, at, fixed);
        return compAny(s, names, at, ["items", ...overNames]);
      });
    }
    predicates.set(name, {
      params,
      pos: e.true.map((s, i) => comp(s, params, `${path}.true[${i}]`, params)),
      neg: e.false.map((s, i) => comp(s, params, `${path}.false[${i}]`, params)),
      groupOver,
      item,
      grouped,
    });
  }

  const actions = new Map<string, ActionTemplate>();
  for (const [key, list] of Object.entries(json.actions)) {
    const name = key.toLowerCase();
    const decl = domain.actions.find((a) => a.name === name);
    const path = `actions.${key}`;
    if (decl === undefined) {
      fail(path, `unknown action '${key}' (actions of ${domain.name}: ${domain.actions.map((a) => a.name).join(", ")})`);
      continue;
    }
    const params = paramNames(decl.params);
    const text = list.map((s, i) => {
      const at = `${path}[${i}]`;
      const c = comp(s, params, at);
      // Exact round trip: every parameter at least once (a repeated one must name the same object
      // each time when read back: "with n1 as the height of {from}"), and no '.' (it ends the
      // action clause of a step).
      for (let p = 0; p < params.length; p++) {
        const n = c.slots.filter((x) => x === p).length;
        if (n === 0) fail(at, `placeholder {${params[p]}} is missing (every parameter of ${name} must appear)`);
      }
      for (let k = 1; k < c.slots.length; k++) {
        if (c.parts[k] === "") fail(at, "two placeholders must be separated by some text");
      }
      if (c.source.includes(".")) fail(at, "an action text must not contain '.'");
      return c;
    });
    actions.set(name, { params, text });
  }
  checkCollisions(domain, json, file, predicates, actions);
  if (!options.genericFallback) {
    const how = "add one, or pass --generic-fallback for text derived from PDDL names";
    for (const a of domain.actions) if (!actions.has(a.name)) fail("actions", `no template for action '${a.name}' (${how})`);
    for (const p of domain.predicates) if (!predicates.has(p.name)) fail("predicates", `no template for predicate '${p.name}' (${how})`);
  }

  return {
    domainName: domain.name,
    file,
    generic: false,
    intro,
    types,
    predicates,
    actions,
    goal: json.goal.map((s, i) => comp(s, ["goal"], `goal[${i}]`, ["goal"])),
    instruction: json.instruction.map(normalizeSpace),
  };
}

/** The placeholder of an intro that stands for the rules written from the action schemas. */
export const RULES_PLACEHOLDER = "{rules}";

/**
 * An intro as the renderer uses it: line breaks kept (a list of rules), other runs of space
 * collapsed, `{ Rules }` written `{rules}`. `{rules}` is the only placeholder, used at most once.
 */
function introText(src: string, path: string, fail: (path: string, msg: string) => never): string {
  let names: string[];
  try {
    names = placeholders(src);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) return fail(path, e.message);
    throw e;
  }
  for (const n of names) {
    if (n !== "rules") fail(path, `unknown placeholder {${n}} (an intro may use only ${RULES_PLACEHOLDER}, the rules written from the action schemas)`);
  }
  if (names.length > 1) fail(path, `placeholder ${RULES_PLACEHOLDER} appears ${names.length} times (use it once)`);
  const text = src.replace(/\{[^{}]*\}/g, RULES_PLACEHOLDER);
  return text.split("\n").map(normalizeSpace).filter((l) => l !== "").join("\n");
}

/** One compiled action or predicate text, for the collision checks. */
interface Said {
  /** "action drive", "predicate at" (with the polarity: `neg`). */
  owner: string;
  neg: boolean;
  path: string;
  c: Compiled;
  /** Declared types of the parameter in each slot (an `either` type lists several). */
  slotTypes: string[][];
  /** Parameter names, for the messages. */
  params: string[];
}

/**
 * Whether a parameter of type `a` and one of type `b` (each a list: `either`) can stand for a
 * common object: some type of the domain (or an `either` constant) is below one of each.
 * Objects a problem declares `(either ...)` are not known here; the meaning check finds those.
 */
function typeOverlap(domain: Domain): (a: readonly string[], b: readonly string[]) => boolean {
  const names = new Set(["object", ...domain.types.map((t) => t.name)]);
  for (const x of [...domain.actions, ...domain.predicates]) for (const p of x.params) for (const t of p.types) names.add(t);
  const kinds: Set<string>[] = [...names].map((t) => new Set(supertypesOf(domain, t)));
  for (const c of domain.constants) if (c.types.length > 1) kinds.push(new Set(c.types.flatMap((t) => supertypesOf(domain, t))));
  const norm = (ts: readonly string[]): readonly string[] => (ts.length === 0 ? ["object"] : ts);
  return (a, b) => {
    const x = norm(a);
    const y = norm(b);
    return kinds.some((k) => x.some((t) => k.has(t)) && y.some((t) => k.has(t)));
  };
}

/**
 * Reject two texts that read alike (DESIGN.md §14: no two facts or actions share a sentence):
 * the same literal parts with slots whose parameters can name a common object (declared types,
 * supertypes and `either` types), unless they are the same text of the same entry. That catches paraphrases of one action or predicate that
 * swap parameters ("from {x} to {y}" / "from {y} to {x}"), two actions or two predicates with
 * the same text, and a predicate whose true and false texts read alike. A predicate `not-p`
 * may read like the opposite of `p`, argument for argument (generic text does: "p1 is not
 * made" for not-made(p1) and for not made(p1)); the meaning check of `templates check
 * --problem` proves such a pair complementary in a task, or reports the sentence. Texts that
 * meet only through object phrases or `either` objects of a problem are also left to it.
 */
function checkCollisions(
  domain: Domain,
  json: NlJson,
  file: string,
  predicates: ReadonlyMap<string, PredicateTemplate>,
  actions: ReadonlyMap<string, ActionTemplate>,
): void {
  const overlap = typeOverlap(domain);
  const keyOf = (entries: Record<string, unknown>, name: string): string => Object.keys(entries).find((k) => k.toLowerCase() === name) ?? name;
  const groups = new Map<string, Said[]>();
  const add = (s: Said): void => {
    const k = `${s.owner.startsWith("action ") ? "a" : "p"}\u0000${s.c.parts.join("\u0000")}`;
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [s]);
    else g.push(s);
  };
  for (const [name, t] of actions) {
    const decl = domain.actions.find((a) => a.name === name)!;
    const key = keyOf(json.actions, name);
    t.text.forEach((c, i) => add({ owner: `action ${name}`, neg: false, path: `actions.${key}[${i}]`, c, slotTypes: c.slots.map((p) => decl.params[p]!.types), params: t.params }));
  }
  for (const [name, t] of predicates) {
    const decl = domain.predicates.find((p) => p.name === name)!;
    const key = keyOf(json.predicates, name);
    for (const [list, neg] of [[t.pos, false], [t.neg, true]] as const) {
      list.forEach((c, i) =>
        add({ owner: `predicate ${name}`, neg, path: `predicates.${key}.${neg ? "false" : "true"}[${i}]`, c, slotTypes: c.slots.map((p) => decl.params[p]!.types), params: t.params }),
      );
    }
  }
  /** `p` and `not-p` with opposite polarities (see twins.ts). */
  const twins = (a: Said, b: Said): boolean => {
    if (a.neg === b.neg || !a.owner.startsWith("predicate ")) return false;
    const [x, y] = [a.owner.slice("predicate ".length), b.owner.slice("predicate ".length)];
    return twinBase(x) === y || twinBase(y) === x;
  };
  for (const group of groups.values()) {
    for (let j = 1; j < group.length; j++) {
      for (let i = 0; i < j; i++) {
        const a = group[i]!;
        const b = group[j]!;
        const sameEntry = a.owner === b.owner && a.neg === b.neg;
        if (sameEntry && a.c.slots.join() === b.c.slots.join()) continue; // the same text twice
        if (!a.slotTypes.every((t, k) => overlap(t, b.slotTypes[k]!))) continue;
        if (twins(a, b) && a.c.slots.join() === b.c.slots.join()) continue;
        const what = a.owner.startsWith("action ") ? "step" : "fact";
        let why: string;
        if (sameEntry) {
          const moved = a.c.slots.flatMap((p, k) => (p === b.c.slots[k] ? [] : [`{${a.params[p]}}`]));
          why = `the same words with parameters of a common type in other places (${[...new Set(moved)].join(", ")}), so one text would stand for two different ${what}s`;
        } else if (a.owner === b.owner) why = "a fact and its negation would get the same sentence";
        else why = `${a.owner} and ${b.owner} would get the same ${what === "step" ? "step text" : "sentence"} (the same words, and their placeholders can name the same objects)`;
        throw new UserError(`${file}: ${a.path} "${a.c.source}" and ${b.path} "${b.c.source}" read alike: ${why}`);
      }
    }
  }
}

/**
 * Load and validate an nl.json for `domain`. Unknown keys, predicates, actions, types or
 * placeholders give a UserError naming the file, the key path and the bad name.
 */
export function loadTemplatesFile(path: string, domain: Domain, options: TemplateOptions = {}): NlTemplates {
  return parseTemplatesText(readTemplatesFile(path), path, domain, options);
}

/** The text of a templates file, or a UserError naming it. */
export function readTemplatesFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(code === "ENOENT" ? `${path}: no such file` : `${path}: cannot read (${code ?? String(e)})`);
  }
}

/** Templates from the text of `path`, read once by the caller (a run compiles the text it recorded). */
export function parseTemplatesText(text: string, path: string, domain: Domain, options: TemplateOptions = {}): NlTemplates {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${path}: invalid JSON (${(e as Error).message})`);
  }
  return compileTemplates(raw, domain, path, options);
}

const builtinCache = new Map<string, NlTemplates | null>();

/**
 * Templates of a built-in domain (`domains/<name>/nl.json`, validated against
 * `domains/<name>/domain.pddl`), or null when the domain has no nl.json.
 */
export function loadTemplates(domainName: string): NlTemplates | null {
  const cached = builtinCache.get(domainName);
  if (cached !== undefined) return cached;
  const dir = join(packageRoot(), "domains", domainName);
  const nlFile = join(dir, "nl.json");
  const domainFile = join(dir, "domain.pddl");
  let result: NlTemplates | null = null;
  if (/^[a-z0-9_-]+$/i.test(domainName) && existsSync(nlFile) && existsSync(domainFile)) {
    const domain = parseDomain(readFileSync(domainFile, "utf8"), domainFile);
    result = loadTemplatesFile(nlFile, domain);
  }
  builtinCache.set(domainName, result);
  return result;
}
