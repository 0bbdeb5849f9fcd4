/**
 * The actions behind a dataset's steps. Most formats carry them as PDDL (`meta.action`,
 * `*_actions`); trl, openrlhf, math-shepherd and paper-prm rows carry only text, so their steps are parsed
 * back with the natural-language parser of the problem (from the PDDL copied under `pddl/`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRenderer, loadTemplates, type Renderer } from "../nl/index.js";
import { parseDomain, parseProblem } from "../pddl/index.js";
import { applyOp, findOperator, ground, isApplicable, isGoal } from "../task/index.js";
import type { GroundTask } from "../task/types.js";

/** An action as the audit sees it: its type (`domain/schema`) and its objects. */
export interface Act {
  type: string;
  args: string[];
}

/** The act of a PDDL ground action "(stack a b)" in `domain`, or null if it is not one. */
export function pddlAct(domain: string, text: unknown): Act | null {
  if (typeof text !== "string") return null;
  const m = /^\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)$/.exec(text.trim());
  if (m === null) return null;
  return { type: `${domain}/${m[1]!.toLowerCase()}`, args: m[2]!.trim().split(/\s+/).filter((x) => x.length > 0) };
}

/** Does the action name one object twice? */
export function repeatsObject(a: Act | null): boolean {
  return a !== null && new Set(a.args).size !== a.args.length;
}

/** Do two consecutive actions act on the same objects (as sets; never for actions without objects)? */
export function sameObjects(prev: Act | null, a: Act | null): boolean {
  if (prev === null || a === null || a.args.length === 0 || prev.args.length === 0) return false;
  const x = new Set(prev.args);
  const y = new Set(a.args);
  return x.size === y.size && [...x].every((o) => y.has(o));
}

/**
 * Parses step text back to actions, one renderer per problem, built from the dataset's `pddl/`
 * copy and the templates the run used (a built-in domain's own; for a domain file, the generic
 * text, so steps written with a templates file of the user's may not parse: they are counted).
 */
export class StepTextParser {
  private readonly renderers = new Map<string, Renderer | null>();
  /** Steps asked about, and those that did not parse. */
  asked = 0;
  failed = 0;

  constructor(
    private readonly dir: string,
    private readonly builtinTemplates: boolean,
  ) {}

  /** Recent answers: the candidates of a state share their prefix steps' text. */
  private readonly recent = new Map<string, Act | null>();

  /** The act a step of problem `domain/problem` describes, or null. */
  parse(domain: string, problem: string, text: string): Act | null {
    this.asked++;
    const key = `${domain}/${problem}\0${text}`;
    const hit = this.recent.get(key);
    if (hit !== undefined) {
      if (hit === null) this.failed++;
      return hit;
    }
    if (this.recent.size >= 4096) this.recent.clear();
    const act = this.parseNew(domain, problem, text);
    this.recent.set(key, act);
    return act;
  }

  private parseNew(domain: string, problem: string, text: string): Act | null {
    const r = this.renderer(domain, problem);
    const p = r === null ? null : r.parseStep(text);
    if (p === null || r === null) {
      this.failed++;
      return null;
    }
    const t = r.task;
    return { type: `${domain}/${t.domain.actions[p.schema]!.name}`, args: p.args.map((o) => t.objects[o]!) };
  }

  /**
   * Is `act` a grounding the grounder pruned: one a fixed fact (or never-reachable one) rules
   * out in every state, so a model can reject it without reading the state? Null when the
   * problem or the action cannot be resolved.
   */
  prunedGrounding(domain: string, problem: string, act: Act | null): boolean | null {
    const t = act === null ? null : this.task(domain, problem);
    if (t === null || act === null) return null;
    const g = resolve(t, act);
    return g === null ? null : findOperator(t, g.schema, g.args).length === 0;
  }

  /**
   * Does the chain of `acts` end at the goal, replayed from the initial state (a step that is
   * not applicable changes nothing, as the chains are labelled)? Null when the problem or a
   * step cannot be resolved.
   */
  endsAtGoal(domain: string, problem: string, acts: readonly (Act | null)[]): boolean | null {
    const t = this.task(domain, problem);
    if (t === null) return null;
    let s = t.init;
    for (const a of acts) {
      const g = a === null ? null : resolve(t, a);
      if (g === null) return null;
      for (const op of findOperator(t, g.schema, g.args)) {
        if (isApplicable(t, s, op)) {
          s = applyOp(t, s, op);
          break;
        }
      }
    }
    return isGoal(t, s);
  }

  private renderer(domain: string, problem: string): Renderer | null {
    const key = `${domain}/${problem}`;
    if (this.renderers.has(key)) return this.renderers.get(key)!;
    // Shards hold a problem's rows together: a few recent renderers are enough.
    if (this.renderers.size >= 16) this.renderers.delete(this.renderers.keys().next().value!);
    const task = this.task(domain, problem);
    let r: Renderer | null = null;
    try {
      let templates = this.templates.get(domain);
      if (templates === undefined && this.builtinTemplates) this.templates.set(domain, (templates = loadTemplates(domain)));
      r = task === null ? null : createRenderer(task, this.builtinTemplates ? templates! : null);
    } catch {
      r = null; // a problem we cannot rebuild: its steps count as not parsed
    }
    this.renderers.set(key, r);
    return r;
  }

  /** A built-in domain's templates, loaded once. */
  private readonly templates = new Map<string, ReturnType<typeof loadTemplates>>();
  /** Ground tasks of recent problems, and parsed domain files (a domain's problems share one). */
  private readonly tasks = new Map<string, GroundTask | null>();
  private readonly domainFiles = new Map<string, ReturnType<typeof parseDomain> | null>();

  /** The ground task of a problem, rebuilt from the dataset's `pddl/` copy (null: it cannot be). */
  private task(domain: string, problem: string): GroundTask | null {
    const key = `${domain}/${problem}`;
    if (this.tasks.has(key)) return this.tasks.get(key)!;
    if (this.tasks.size >= 16) this.tasks.delete(this.tasks.keys().next().value!);
    let task: GroundTask | null = null;
    const base = join(this.dir, "pddl", domain);
    const own = join(base, `${problem}.domain.pddl`);
    const domainFile = existsSync(own) ? own : join(base, "domain.pddl");
    const problemFile = join(base, `${problem}.pddl`);
    if (existsSync(domainFile) && existsSync(problemFile)) {
      try {
        let d = this.domainFiles.get(domainFile);
        if (d === undefined) {
          if (this.domainFiles.size >= 64) this.domainFiles.clear();
          d = parseDomain(readFileSync(domainFile, "utf8"), domainFile);
          this.domainFiles.set(domainFile, d);
        }
        if (d !== null) task = ground(d, parseProblem(readFileSync(problemFile, "utf8"), problemFile, d));
      } catch {
        task = null;
      }
    }
    this.tasks.set(key, task);
    return task;
  }

}

/** An act's schema and object indices in `t`, or null when it names an unknown action or object. */
function resolve(t: GroundTask, act: Act): { schema: number; args: number[] } | null {
  const name = act.type.slice(act.type.indexOf("/") + 1);
  const schema = t.domain.actions.findIndex((a) => a.name.toLowerCase() === name);
  if (schema < 0 || t.domain.actions[schema]!.params.length !== act.args.length) return null;
  const args = act.args.map((o) => t.objects.findIndex((x) => x.toLowerCase() === o.toLowerCase()));
  return args.some((a) => a < 0) ? null : { schema, args };
}
