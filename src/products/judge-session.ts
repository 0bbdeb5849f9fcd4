/**
 * A long-lived judge (`judge --jsonl`): requests name their domain and problem by built-in
 * name, file path or PDDL text; parsed domains, ground tasks and their h* caches stay warm
 * across requests (least recently used tasks are dropped past a bound).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Domain, Problem } from "../pddl/ast.js";
import { parseDomain, parseProblem, PddlError, printDomain, UserError } from "../pddl/index.js";
import { checkTime, LimitError } from "../search/types.js";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir } from "../generators/index.js";
import { loadTemplates, loadTemplatesFile, type NlTemplates } from "../nl/index.js";
import { createJudgeTask, judgeSteps, type JudgeOptions, type JudgeTask, type JudgeTaskOptions, type Judgement } from "./judge.js";

/** One request line of `judge --jsonl`. */
export const JudgeRequestSchema = z
  .object({
    /** Echoed on the result line. */
    id: z.union([z.string(), z.number()]).optional(),
    /** A built-in domain name, a domain file path, or PDDL text (default: the session's). */
    domain: z.string().min(1).optional(),
    /** A problem file path, PDDL text, or a shipped problem of a built-in domain ("p0001"). */
    problem: z.string().min(1).optional(),
    /** PDDL actions or step text, one per entry. */
    steps: z.array(z.string()),
    /** Seeds the critiques' paraphrases (default 0). */
    seed: z.number().int().optional(),
  })
  .strict();
export type JudgeRequest = z.infer<typeof JudgeRequestSchema>;

export interface JudgeSessionOptions {
  /** Domain and problem of requests that name none. */
  domain?: string;
  problem?: string;
  /** nl.json for domains that are not built-in (default: text from PDDL names). */
  templatesFile?: string;
  /** Explicit-space cap of the h* oracle (`--max-states`). */
  maxStates?: number;
  /** Grounding caps (`--max-ops`, `--max-facts`). */
  groundCaps?: JudgeTaskOptions["groundCaps"];
  /** Time limit per request, ms. */
  timeMs?: number;
  /** Seed of requests that give none (default 0). */
  seed?: number;
  /** Ground tasks kept warm (default 64). */
  cacheSize?: number;
  /**
   * Called with true before work that cannot look at a clock (reading and parsing a request's
   * domain or problem) and with false after it: a caller that stops a request from outside
   * (`judge --jsonl`) stops it there only, where its own limit cannot.
   */
  onBlind?: (blind: boolean) => void;
}

interface DomainEntry {
  domain: Domain;
  templates: NlTemplates | null;
  /** The built-in domain it is (same PDDL), or null. */
  builtin: string | null;
}

/** Whether a domain or problem spec is PDDL text (not a name or a path). */
export const isText = (spec: string): boolean => spec.includes("(");

/** A domain or problem file named by a request: a missing file or a folder is the client's error, in one line. */
export function readSpecFile(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`${what} '${path}': no such file (give a built-in domain name, a file or PDDL text)`);
    if (code === "EISDIR") throw new UserError(`${what} '${path}': is a directory, expected a file`);
    throw new UserError(`${what} '${path}': cannot read (${code ?? String(e)})`);
  }
}

/**
 * The shipped PDDL files of the built-in domains, read once per thread: they never change under
 * a running session, and a request naming a built-in problem then does no I/O (nothing that
 * cannot look at a clock, see `onBlind`).
 */
const shippedTexts = new Map<string, string>();
function shippedText(file: string, what: string): string | null {
  let t = shippedTexts.get(file);
  if (t === undefined) {
    // (a name that is not a shipped file is not kept: any client could grow the map)
    if (!existsSync(file)) return null;
    shippedTexts.set(file, (t = readSpecFile(file, what)));
  }
  return t;
}

// printed PDDL of the built-in domains, parsed on demand (only those declaring the same name)
const builtinPrinted = new Map<string, string>();

/** The built-in domain whose PDDL is `d`'s (printed ASTs compared), or null. */
export function builtinNameOf(d: Domain): string | null {
  const printed = printDomain(d);
  for (const b of BUILTIN_DOMAINS) {
    const file = builtinDomainFile(b.name);
    let text = builtinPrinted.get(b.name);
    if (text === undefined) {
      const raw = readFileSync(file, "utf8");
      const declared = /\(\s*domain\s+([^\s()]+)/i.exec(raw)?.[1]?.toLowerCase();
      if (declared !== d.name.toLowerCase()) continue;
      text = printDomain(parseDomain(raw, file));
      builtinPrinted.set(b.name, text);
    }
    if (text === printed) return b.name;
  }
  return null;
}

/** Judges many plans of many problems, keeping the work of earlier requests. */
export class JudgeSession {
  private readonly domains = new Map<string, DomainEntry>();
  private readonly tasks = new Map<string, JudgeTask>();
  private readonly options: JudgeSessionOptions;

  constructor(options: JudgeSessionOptions = {}) {
    this.options = options;
  }

  /**
   * Judge one request. Throws UserError/PddlError for a bad request, LimitError at a limit.
   * The limit is `timeMs` from this call or the absolute `deadline` (`performance.now()` ms: the
   * CLI's counts from the command's start), whichever comes first; it covers parsing, grounding
   * and the preparation of a problem not yet warm, not only the judgement.
   */
  judge(request: JudgeRequest, timeMs = this.options.timeMs, deadline = Infinity): Judgement {
    const end = Math.min(deadline, timeMs !== undefined && timeMs > 0 ? performance.now() + timeMs : Infinity);
    const domainSpec = request.domain ?? this.options.domain;
    const problemSpec = request.problem ?? this.options.problem;
    if (domainSpec === undefined) throw new UserError("the request names no domain");
    if (problemSpec === undefined) throw new UserError("the request names no problem");
    const jt = this.task(domainSpec, problemSpec, end);
    return judgeSteps(jt, request.steps, {
      seed: request.seed ?? this.options.seed ?? 0,
      ...(end !== Infinity ? { deadline: end } : {}),
    });
  }

  /**
   * Parse and judge one JSON line: the result, or `{error}` for a bad request or a limit (with
   * the request's `id` when it has one). Only internal errors throw. The limit is the session's
   * `timeMs` from this call or `deadline` (`performance.now()` ms: when the line was read plus
   * `timeMs`), whichever comes first.
   */
  judgeLine(line: string, deadline = Infinity): Record<string, unknown> {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      return { error: `not JSON: ${(e as Error).message}` };
    }
    const parsed = JudgeRequestSchema.safeParse(raw);
    const id = raw !== null && typeof raw === "object" && "id" in raw ? (raw as { id: unknown }).id : undefined;
    const withId = (o: Record<string, unknown>) => (id === undefined ? o : { id, ...o });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return withId({ error: `bad request: ${issue.path.join(".") || "line"}: ${issue.message}` });
    }
    try {
      return withId({ ...this.judge(parsed.data, this.options.timeMs, deadline) });
    } catch (e) {
      if (e instanceof PddlError) return withId({ error: e.format() });
      if (e instanceof UserError) return withId({ error: e.message });
      if (e instanceof LimitError) return withId({ error: `limit reached: ${e.message}` });
      throw e;
    }
  }

  /** `f()` reported as work that cannot look at a clock (`onBlind`). */
  private blind<T>(f: () => T): T {
    const on = this.options.onBlind;
    if (on === undefined) return f();
    on(true);
    try {
      return f();
    } finally {
      on(false);
    }
  }

  private domainEntry(spec: string, deadline: number): { text: string; entry: DomainEntry } {
    let text: string;
    let file: string;
    if (isText(spec)) {
      text = spec;
      file = "<request domain>";
    } else {
      const builtin = BUILTIN_DOMAINS.find((b) => b.name === spec.toLowerCase());
      file = builtin !== undefined ? builtinDomainFile(builtin.name) : spec;
      const shipped = builtin !== undefined ? shippedText(file, "domain") : null;
      text = shipped ?? this.blind(() => readSpecFile(file, "domain"));
    }
    let entry = this.domains.get(text);
    if (entry === undefined) {
      entry = this.blind(() => {
        const domain = parseDomain(text, file);
        const builtin = builtinNameOf(domain);
        const templates =
          builtin !== null ? loadTemplates(builtin) : this.options.templatesFile !== undefined ? loadTemplatesFile(this.options.templatesFile, domain) : null;
        return { domain, templates, builtin };
      });
      this.domains.set(text, entry);
      // (kept even when late: the next request need not parse it again)
      checkTime(deadline, "while reading the domain");
    }
    return { text, entry };
  }

  private problemText(spec: string, builtin: string | null): { text: string; file: string } {
    if (isText(spec)) return { text: spec, file: "<request problem>" };
    if (builtin !== null && /^[\w.-]+$/.test(spec)) {
      const file = join(builtinProblemsDir(builtin), spec.endsWith(".pddl") ? spec : `${spec}.pddl`);
      const shipped = shippedText(file, "problem");
      if (shipped !== null) return { text: shipped, file };
    }
    return { text: this.blind(() => readSpecFile(spec, "problem")), file: spec };
  }

  private task(domainSpec: string, problemSpec: string, deadline: number): JudgeTask {
    const { text: dText, entry } = this.domainEntry(domainSpec, deadline);
    const p = this.problemText(problemSpec, entry.builtin);
    const key = `${dText}\0${p.text}`;
    let jt = this.tasks.get(key);
    if (jt !== undefined) {
      // most recently used last
      this.tasks.delete(key);
      this.tasks.set(key, jt);
      return jt;
    }
    const problem = this.blind(() => parseProblem(p.text, p.file, entry.domain));
    checkTime(deadline, "while reading the problem");
    jt = createJudgeTask(entry.domain, problem, {
      templates: entry.templates,
      ...(this.options.maxStates !== undefined ? { maxStates: this.options.maxStates } : {}),
      ...(this.options.groundCaps !== undefined ? { groundCaps: this.options.groundCaps } : {}),
      ...(deadline !== Infinity ? { deadline } : {}),
    });
    if (this.tasks.size >= (this.options.cacheSize ?? 64)) this.tasks.delete(this.tasks.keys().next().value!);
    this.tasks.set(key, jt);
    return jt;
  }
}

const defaultSession = new JudgeSession({ cacheSize: 16 });

/**
 * Judge a plan: `domain` and `problem` as PDDL text, parsed ASTs, or as a request names them
 * (a built-in domain name, a file path, a shipped problem name), `steps` as PDDL actions
 * or step text in the domain's language (a built-in domain's templates, else text from PDDL
 * names, else `options.templates`). Every step gets category, reward, evidence and critique
 * relative to the state the plan has reached and the states it has visited; rejected steps
 * leave the state as it is (src/products/judge.ts). Problems given as text stay prepared, with
 * their h* caches, across calls (the last 16). Bad PDDL throws PddlError; a limit LimitError.
 */
export function judgePlan(
  domain: string | Domain,
  problem: string | Problem,
  steps: readonly string[],
  options: JudgeOptions & JudgeTaskOptions = {},
): Judgement {
  // the time limit counts from this call: parsing, grounding and preparing are inside it
  const deadline = Math.min(options.deadline ?? Infinity, options.timeMs !== undefined && options.timeMs > 0 ? performance.now() + options.timeMs : Infinity);
  if (typeof domain === "string" && typeof problem === "string" && options.templates === undefined && options.maxStates === undefined) {
    return defaultSession.judge({ domain, problem, steps: [...steps], ...(options.seed !== undefined ? { seed: options.seed } : {}) }, undefined, deadline);
  }
  const d = typeof domain === "string" ? parseDomain(domain) : domain;
  const p = typeof problem === "string" ? parseProblem(problem, "<problem>", d) : problem;
  const builtin = builtinNameOf(d);
  const templates = options.templates !== undefined ? options.templates : builtin !== null ? loadTemplates(builtin) : null;
  checkTime(deadline, "while reading the problem");
  const at = deadline !== Infinity ? { deadline } : {};
  return judgeSteps(createJudgeTask(d, p, { ...options, templates, ...at }), steps, { ...(options.seed !== undefined ? { seed: options.seed } : {}), ...at });
}
