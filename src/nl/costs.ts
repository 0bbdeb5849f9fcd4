/**
 * Action costs in words: what each action schema costs (a number, or a function of its
 * arguments such as the road length between two places), and the facts those costs are read
 * from ("the road length from l1 to l2 is 22").
 */
import type { ActionDecl, Effect, NumericExpr, Problem, Term } from "../pddl/ast.js";
import { splitName } from "./lexicon.js";
import { joinList } from "./text.js";

/** The cost of one action schema: a fixed number, a function term of its parameters, or none (0). */
export type CostInfo = { kind: "fixed"; value: number } | { kind: "fn"; name: string; args: Term[] };

/** The `(increase (total-cost) X)` of an action, or a fixed 0 when it has none. */
export function actionCost(a: ActionDecl): CostInfo {
  let found: NumericExpr | null = null;
  const walk = (e: Effect | null): void => {
    if (e === null || found !== null) return;
    if (e.kind === "increase" && e.fn.name === "total-cost") found = e.value;
    else if (e.kind === "and") e.args.forEach(walk);
  };
  walk(a.effect);
  if (found === null) return { kind: "fixed", value: 0 };
  const v = found as NumericExpr;
  return v.kind === "number" ? { kind: "fixed", value: v.value } : { kind: "fn", name: v.fn.name, args: v.fn.args };
}

/**
 * A function's value in words: "the road length from A to B" (two arguments), "the spray
 * cost of A" (one), "the <name>" (none). `args` are already phrased.
 */
export function functionPhrase(name: string, args: readonly string[]): string {
  const w = splitName(name).join(" ");
  if (args.length === 0) return `the ${w}`;
  if (args.length === 1) return `the ${w} of ${args[0]}`;
  if (args.length === 2) return `the ${w} from ${args[0]} to ${args[1]}`;
  return `the ${w} of ${joinList([...args])}`;
}

/** "costs 1", "costs nothing", "costs the road length from A to B". */
export function costClause(c: CostInfo, args: readonly string[]): string {
  if (c.kind === "fixed") return c.value === 0 ? "costs nothing" : `costs ${c.value}`;
  return `costs ${functionPhrase(c.name, args)}`;
}

/**
 * The values of the cost functions the actions use, from the problem's init, grouped by
 * function: ["the road length from l1 to l2 is 22", ...]. `phrase` names an object.
 */
export function costStatements(actions: readonly ActionDecl[], problem: Problem, phrase: (name: string) => string): string[] {
  const used = new Set<string>();
  for (const a of actions) {
    const c = actionCost(a);
    if (c.kind === "fn") used.add(c.name);
  }
  const out: string[] = [];
  for (const el of problem.init) {
    if (el.kind !== "fn-eq" || !used.has(el.fn.name)) continue;
    out.push(`${functionPhrase(el.fn.name, el.fn.args.map((t) => phrase(t.name)))} is ${el.value}`);
  }
  return out;
}
