/**
 * Explanations for any type-correct ground action, including ones that grounding pruned:
 * which precondition literals are false in a state, evaluated on the lifted precondition
 * (static atoms from init, atoms that are not facts of the task are false).
 */
import { atomKey, atomKeyTerms, compile, compiledOfTask, resolve, type CF, type Compiled } from "./compile.js";
import { hasFact, isApplicable } from "./state.js";
import type { GroundTask } from "./types.js";

interface Ctx {
  c: Compiled;
  /** Fact id by `atomKey` of its predicate and arguments. */
  factIndex: Map<number | string, number>;
  /**
   * Operator ids (DNF variants) by `atomKey` of schema and arguments (schemas in place of
   * predicates): one id as a number until it is first looked up (most operators never are, and
   * a list each cost a large task thousands of arrays), a list otherwise.
   */
  opIndex: Map<number | string, number | number[]>;
  opKeys: { radix: number; preds: number };
  schemaIndex: Map<string, number>;
}
const ctxs = new WeakMap<GroundTask, Ctx>();

// Numeric keys (atomKey) where they fit: built for every labelled problem and looked up for
// every candidate and precondition, string keys were a visible share of a worker's time.
function ctxOf(task: GroundTask): Ctx {
  let x = ctxs.get(task);
  if (!x) {
    const c = compiledOfTask.get(task) ?? compile(task.domain, task.problem);
    const factIndex = new Map<number | string, number>();
    const args: number[] = [];
    for (let f = 0; f < task.numFacts; f++) {
      const pred = c.predIndex.get(task.factPredicate[f]!);
      if (pred === undefined) continue; // a compiled goal's own fact: no atom of the domain names it
      args.length = 0;
      for (let i = task.factArgStart[f]!; i < task.factArgStart[f + 1]!; i++) args.push(task.factArgs[i]!);
      factIndex.set(atomKey(c, pred, args), f);
    }
    const opKeys = { radix: c.radix, preds: Math.max(1, task.domain.actions.length) };
    const opIndex = new Map<number | string, number | number[]>();
    for (let o = 0; o < task.numOps; o++) {
      args.length = 0;
      for (let i = task.opArgStart[o]!; i < task.opArgStart[o + 1]!; i++) args.push(task.opArgs[i]!);
      const key = atomKey(opKeys, task.opSchema[o]!, args);
      const l = opIndex.get(key);
      if (l === undefined) opIndex.set(key, o);
      else if (typeof l === "number") opIndex.set(key, [l, o]);
      else l.push(o);
    }
    const schemaIndex = new Map<string, number>();
    task.domain.actions.forEach((a, i) => schemaIndex.set(a.name, i));
    x = { c, factIndex, opIndex, opKeys, schemaIndex };
    ctxs.set(task, x);
  }
  return x;
}

/** Ids of the ground operators (all DNF variants) of action `schema` with object ids `args`. */
export function findOperator(task: GroundTask, schema: number, args: number[]): number[] {
  const x = ctxOf(task);
  const key = atomKey(x.opKeys, schema, args);
  const l = x.opIndex.get(key);
  if (l === undefined) return [];
  if (typeof l !== "number") return l;
  const one = [l];
  x.opIndex.set(key, one);
  return one;
}

/** Parse "(pick-up a)" into schema index and object ids, or explain why it is not a ground action. */
export function resolveGroundAction(task: GroundTask, text: string): { schema: number; args: number[] } | { error: string } {
  const x = ctxOf(task);
  const t = text.trim().toLowerCase();
  const m = /^\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)$/.exec(t);
  if (!m) return { error: `not an action: '${text.trim()}'` };
  const schema = x.schemaIndex.get(m[1]!);
  if (schema === undefined) return { error: `unknown action '${m[1]}'` };
  const names = m[2]!.trim() ? m[2]!.trim().split(/\s+/) : [];
  const s = x.c.schemas[schema]!;
  if (names.length !== s.arity) return { error: `action '${m[1]}' expects ${s.arity} arguments, got ${names.length}` };
  const args: number[] = [];
  for (let i = 0; i < names.length; i++) {
    const o = x.c.objectIndex.get(names[i]!);
    if (o === undefined) return { error: `unknown object '${names[i]}'` };
    if (s.paramDoms[i]!.indexOf(o) < 0) {
      const p = task.domain.actions[schema]!.params[i]!;
      return { error: `object '${names[i]}' is not of type ${p.types.join(" or ") || "object"} (parameter ${p.name} of '${m[1]}')` };
    }
    args.push(o);
  }
  return { schema, args };
}

/** Parse "(pick-up a)" into schema index and object ids; null unless it is a type-correct ground action. */
export function parseGroundAction(task: GroundTask, text: string): { schema: number; args: number[] } | null {
  const r = resolveGroundAction(task, text);
  return "error" in r ? null : r;
}

function atomTruth(task: GroundTask, x: Ctx, state: Uint32Array, f: Extract<CF, { k: "atom" }>, env: Int32Array): boolean {
  const key = atomKeyTerms(x.c, f.pred, f.args, env);
  if (x.c.predStatic[f.pred]) return x.c.staticTrue.has(key);
  const id = x.factIndex.get(key);
  return id !== undefined && hasFact(state, id);
}

/** Truth of `f` (xor `neg`). */
function evalF(task: GroundTask, x: Ctx, state: Uint32Array, f: CF, env: Int32Array, neg: boolean): boolean {
  switch (f.k) {
    case "atom":
      return atomTruth(task, x, state, f, env) !== neg;
    case "eq":
      return (resolve(f.a, env) === resolve(f.b, env)) !== neg;
    case "not":
      return evalF(task, x, state, f.arg, env, !neg);
    case "and":
      return f.args.every((a) => evalF(task, x, state, a, env, false)) !== neg;
    case "or":
      return f.args.some((a) => evalF(task, x, state, a, env, false)) !== neg;
    case "imply":
      return (!evalF(task, x, state, f.l, env, false) || evalF(task, x, state, f.r, env, false)) !== neg;
    case "exists":
    case "forall": {
      const want = f.k === "exists"; // exists: looking for a true instance; forall: for a false one
      let found = false;
      const rec = (i: number): void => {
        if (found) return;
        if (i === f.slots.length) {
          if (evalF(task, x, state, f.body, env, false) === want) found = true;
          return;
        }
        const d = f.doms[i]!;
        for (let j = 0; j < d.length && !found; j++) {
          env[f.slots[i]!] = d[j]!;
          rec(i + 1);
        }
        env[f.slots[i]!] = -1;
      };
      rec(0);
      return (want ? found : !found) !== neg;
    }
  }
}

function termText(c: Compiled, t: number, env: Int32Array, slotNames: string[]): string {
  if (t >= 0) return c.objects[t]!;
  const v = env[-t - 1]!;
  return v >= 0 ? c.objects[v]! : slotNames[-t - 1]!;
}

/** PDDL text of `f` with bound variables substituted. */
function printF(c: Compiled, f: CF, env: Int32Array, slotNames: string[]): string {
  switch (f.k) {
    case "atom": {
      let s = "(" + c.predNames[f.pred]!;
      for (let i = 0; i < f.args.length; i++) s += " " + termText(c, f.args[i]!, env, slotNames);
      return s + ")";
    }
    case "eq":
      return `(= ${termText(c, f.a, env, slotNames)} ${termText(c, f.b, env, slotNames)})`;
    case "not":
      return `(not ${printF(c, f.arg, env, slotNames)})`;
    case "and":
    case "or":
      return `(${f.k} ${f.args.map((a) => printF(c, a, env, slotNames)).join(" ")})`;
    case "imply":
      return `(imply ${printF(c, f.l, env, slotNames)} ${printF(c, f.r, env, slotNames)})`;
    case "exists":
    case "forall": {
      for (const s of f.slots) env[s] = -1;
      const ps = f.params.map((p) => `${p.name}${p.types.length ? " - " + (p.types.length > 1 ? `(either ${p.types.join(" ")})` : p.types[0]) : ""}`);
      return `(${f.k} (${ps.join(" ")}) ${printF(c, f.body, env, slotNames)})`;
    }
  }
}

/** Push the false conjuncts of `f` (under polarity `neg`) as PDDL text. */
function failedParts(task: GroundTask, x: Ctx, state: Uint32Array, f: CF, env: Int32Array, neg: boolean, names: string[], out: string[]): void {
  const c = x.c;
  switch (f.k) {
    case "atom":
    case "eq":
      if (!evalF(task, x, state, f, env, neg)) {
        const t = printF(c, f, env, names);
        out.push(neg ? `(not ${t})` : t);
      }
      return;
    case "not":
      failedParts(task, x, state, f.arg, env, !neg, names, out);
      return;
    case "and":
    case "or":
      if ((f.k === "and") !== neg) {
        for (const a of f.args) failedParts(task, x, state, a, env, neg, names, out);
      } else if (!evalF(task, x, state, f, env, neg)) {
        const t = printF(c, f, env, names);
        out.push(neg ? `(not ${t})` : t);
      }
      return;
    case "imply":
      if (!neg) {
        // (l -> r) fails only when l holds: then the failed parts of r are the reason.
        if (evalF(task, x, state, f.l, env, false)) failedParts(task, x, state, f.r, env, false, names, out);
      } else {
        failedParts(task, x, state, f.l, env, false, names, out);
        failedParts(task, x, state, f.r, env, true, names, out);
      }
      return;
    case "exists":
    case "forall":
      if ((f.k === "forall") !== neg) {
        const rec = (i: number): void => {
          if (i === f.slots.length) {
            failedParts(task, x, state, f.body, env, neg, names, out);
            return;
          }
          const d = f.doms[i]!;
          for (let j = 0; j < d.length; j++) {
            env[f.slots[i]!] = d[j]!;
            rec(i + 1);
          }
          env[f.slots[i]!] = -1;
        };
        rec(0);
      } else if (!evalF(task, x, state, f, env, neg)) {
        const t = printF(c, f, env, names);
        out.push(neg ? `(not ${t})` : t);
      }
      return;
  }
}

/**
 * For a type-correct ground action (schema index into task.domain.actions, object ids into
 * task.objects): its operator id (an applicable variant if there is one, else any variant, else
 * -1 when grounding pruned it) and the precondition literals false in `state`, in PDDL syntax
 * ("(clear b)", "(not (holding a))"). `failed` is empty iff the action is applicable.
 */
export function explainAction(task: GroundTask, state: Uint32Array, schema: number, args: number[]): { op: number; failed: string[] } {
  const x = ctxOf(task);
  const variants = findOperator(task, schema, args);
  let op = variants.length ? variants[0]! : -1;
  for (const v of variants)
    if (isApplicable(task, state, v)) {
      op = v;
      break;
    }
  const s = x.c.schemas[schema]!;
  const failed: string[] = [];
  if (s.pre) {
    const env = new Int32Array(Math.max(1, s.numSlots)).fill(-1);
    env.set(args);
    failedParts(task, x, state, s.pre, env, false, s.slotNames, failed);
  }
  return { op, failed: [...new Set(failed)] };
}

/** The goal literals false in `state`, in PDDL syntax (empty iff the goal holds). */
export function explainGoal(task: GroundTask, state: Uint32Array): string[] {
  const x = ctxOf(task);
  const env = new Int32Array(Math.max(1, x.c.goalSlots)).fill(-1);
  const out: string[] = [];
  failedParts(task, x, state, x.c.goal, env, false, x.c.goalSlotNames, out);
  return [...new Set(out)];
}
