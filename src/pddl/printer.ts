/** AST -> PDDL text. parse(print(ast)) gives back ast (up to `loc` fields). */
import type { Domain, Effect, Formula, FunctionTerm, InitElement, NumericExpr, Problem, Term, TypedName } from "./ast.js";

function typeName(types: string[]): string {
  return types.length === 1 ? types[0]! : `(either ${types.join(" ")})`;
}
function typed(list: TypedName[]): string {
  return list.map((n) => `${n.name} - ${typeName(n.types)}`).join(" ");
}
function term(t: Term): string {
  return t.name;
}
function atom(pred: string, args: Term[]): string {
  return args.length === 0 ? `(${pred})` : `(${pred} ${args.map(term).join(" ")})`;
}
function fn(f: FunctionTerm): string {
  return atom(f.name, f.args);
}
function num(n: number): string {
  return String(n);
}
function nexpr(e: NumericExpr): string {
  return e.kind === "number" ? num(e.value) : fn(e.fn);
}

/** Print a formula on one line. */
export function printFormula(f: Formula): string {
  switch (f.kind) {
    case "atom": return atom(f.atom.predicate, f.atom.args);
    case "eq": return `(= ${term(f.left)} ${term(f.right)})`;
    case "not": return `(not ${printFormula(f.arg)})`;
    case "and": return f.args.length === 0 ? "(and)" : `(and ${f.args.map(printFormula).join(" ")})`;
    case "or": return f.args.length === 0 ? "(or)" : `(or ${f.args.map(printFormula).join(" ")})`;
    case "imply": return `(imply ${printFormula(f.left)} ${printFormula(f.right)})`;
    case "exists":
    case "forall": return `(${f.kind} (${typed(f.params)}) ${printFormula(f.body)})`;
  }
}

/** Print an effect on one line. */
export function printEffect(e: Effect): string {
  switch (e.kind) {
    case "add": return atom(e.atom.predicate, e.atom.args);
    case "del": return `(not ${atom(e.atom.predicate, e.atom.args)})`;
    case "and": return e.args.length === 0 ? "(and)" : `(and ${e.args.map(printEffect).join(" ")})`;
    case "forall": return `(forall (${typed(e.params)}) ${printEffect(e.body)})`;
    case "when": return `(when ${printFormula(e.cond)} ${printEffect(e.body)})`;
    case "increase": return `(increase ${fn(e.fn)} ${nexpr(e.value)})`;
  }
}

/** Print a domain as PDDL text. */
export function printDomain(d: Domain): string {
  const out: string[] = [`(define (domain ${d.name})`];
  if (d.requirements.length > 0) out.push(`  (:requirements ${d.requirements.join(" ")})`);
  if (d.types.length > 0) out.push(`  (:types\n${d.types.map((t) => `    ${t.name} - ${typeName(t.parents)}`).join("\n")})`);
  if (d.constants.length > 0) out.push(`  (:constants ${typed(d.constants)})`);
  if (d.predicates.length > 0) out.push(`  (:predicates\n${d.predicates.map((p) => `    (${[p.name, typed(p.params)].filter((s) => s !== "").join(" ")})`).join("\n")})`);
  if (d.functions.length > 0) {
    out.push(`  (:functions\n${d.functions.map((f) => `    (${[f.name, typed(f.params)].filter((s) => s !== "").join(" ")})${f.type === null ? "" : ` - ${f.type}`}`).join("\n")})`);
  }
  for (const a of d.actions) {
    const parts = [`  (:action ${a.name}`, `    :parameters (${typed(a.params)})`];
    if (a.precondition) parts.push(`    :precondition ${printFormula(a.precondition)}`);
    if (a.effect) parts.push(`    :effect ${printEffect(a.effect)}`);
    out.push(parts.join("\n") + ")");
  }
  for (const dr of d.derived) {
    out.push(`  (:derived (${[dr.predicate, typed(dr.params)].filter((s) => s !== "").join(" ")})\n    ${printFormula(dr.body)})`);
  }
  return out.join("\n") + ")\n";
}

function initEl(el: InitElement): string {
  return el.kind === "atom" ? atom(el.atom.predicate, el.atom.args) : `(= ${fn(el.fn)} ${num(el.value)})`;
}

/** Print a problem as PDDL text. */
export function printProblem(p: Problem): string {
  const out: string[] = [`(define (problem ${p.name})`, `  (:domain ${p.domainName})`];
  if (p.requirements.length > 0) out.push(`  (:requirements ${p.requirements.join(" ")})`);
  if (p.objects.length > 0) out.push(`  (:objects ${typed(p.objects)})`);
  out.push(`  (:init${p.init.map((el) => `\n    ${initEl(el)}`).join("")})`);
  out.push(`  (:goal ${printFormula(p.goal)})`);
  if (p.metric) out.push(`  (:metric ${p.metric.direction} ${fn(p.metric.fn)})`);
  return out.join("\n") + ")\n";
}
