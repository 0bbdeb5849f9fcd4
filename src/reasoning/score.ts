/**
 * Grading answers to reasoning questions (`pddl2prm score` on an `--format acp` folder): exact
 * match for yes/no and choices; free answers against the engine's gold, computed when the rows
 * were written (every optimal next action, the exact set of applicable actions or of changed
 * facts, the right options, the first failing step), so no planner runs at scoring time. Free
 * answers may name actions and facts in PDDL ("(stack a b)", "+(on a b)" / "-(on a b)"), by
 * option letter or step number, or in the dataset's own words, read back by the problem's
 * natural-language parser (the PDDL copied under `pddl/`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRenderer, loadTemplates, type Renderer } from "../nl/index.js";
import { parseDomain, parseProblem } from "../pddl/index.js";
import { UserError } from "../pddl/errors.js";
import { findOperator, ground } from "../task/index.js";
import { readJsonlSource } from "../products/score.js";
import type { AcpForm, AcpGold, AcpKind } from "./questions.js";
import { answerText, readChoice, readEffectLists, readYesNo } from "./answers.js";
import { Actions, validPlan } from "./engine.js";
import { isStrictSubsequence } from "./open-ended.js";

/** One gold question as the grader needs it. */
export interface AcpGoldItem {
  id: string;
  domain: string;
  problem: string;
  kind: AcpKind;
  form: AcpForm;
  gold: AcpGold;
  /** A plan-simplification question's plan and the walk's steps before its state (PDDL): the grader replays answers. */
  plan?: string[] | null;
  prefix?: string[];
}

export interface AcpScoreReport {
  n: number;
  accuracy: number;
  /** Answers that could not be read (graded wrong), in all and per form. */
  unparsed: number;
  unparsed_by_form: Record<string, number>;
  by_kind: Record<string, { n: number; accuracy: number }>;
  by_form: Record<string, { n: number; accuracy: number }>;
  by_kind_form: Record<string, { n: number; accuracy: number }>;
  by_domain: Record<string, { n: number; accuracy: number }>;
}

/** Is `obj` a question row of `--format acp`? */
export function isAcpRow(obj: Record<string, unknown>): boolean {
  const meta = obj["meta"];
  return typeof obj["kind"] === "string" && typeof obj["form"] === "string" && meta !== null && typeof meta === "object" && typeof (meta as Record<string, unknown>)["gold"] === "object";
}

/** The gold item of a question row. */
export function acpGoldOf(obj: Record<string, unknown>): AcpGoldItem {
  const meta = obj["meta"] as Record<string, unknown>;
  return { id: String(obj["id"]), domain: String(obj["domain"]), problem: String(obj["problem"]), kind: obj["kind"] as AcpKind, form: obj["form"] as AcpForm, gold: meta["gold"] as AcpGold, plan: (meta["plan"] ?? null) as string[] | null, prefix: (meta["prefix"] ?? []) as string[] };
}

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, " ").trim();
/** PDDL atoms of a text, normalised ("( on A  b )" -> "(on a b)"), with a leading sign kept. */
function atoms(text: string): string[] {
  // a name and its objects, no commas: "(3, 2)" in a sentence is a square, not an atom
  return [...text.matchAll(/([+-]?)\s*\(\s*([A-Za-z][^\s(),]*(?:\s+[^\s(),]+)*)\s*\)/g)].map((m) => `${m[1]}(${norm(m[2]!)})`);
}

/**
 * Reads free answers written in words: each line (or clause) is parsed as an action or a fact of
 * the question's problem by its renderer (built from the dataset's `pddl/` copy).
 */
export class AcpTextReader {
  private readonly renderers = new Map<string, Renderer | null>();
  constructor(private readonly dir: string) {}

  private renderer(domain: string, problem: string): Renderer | null {
    const key = `${domain}/${problem}`;
    if (this.renderers.has(key)) return this.renderers.get(key)!;
    if (this.renderers.size >= 16) this.renderers.delete(this.renderers.keys().next().value!);
    const base = join(this.dir, "pddl", domain);
    const own = join(base, `${problem}.domain.pddl`);
    const domainFile = existsSync(own) ? own : join(base, "domain.pddl");
    const problemFile = join(base, `${problem}.pddl`);
    let r: Renderer | null = null;
    if (existsSync(domainFile) && existsSync(problemFile)) {
      const d = parseDomain(readFileSync(domainFile, "utf8"), domainFile);
      const task = ground(d, parseProblem(readFileSync(problemFile, "utf8"), problemFile, d));
      r = createRenderer(task, loadTemplates(domain));
    }
    this.renderers.set(key, r);
    return r;
  }

  /** The PDDL names of the actions `text` names, one per line (null: no parser for the problem). */
  actions(domain: string, problem: string, text: string): string[] | null {
    const r = this.renderer(domain, problem);
    if (r === null) return null;
    const out: string[] = [];
    for (const line of text.split(/\n|;/).map((l) => l.trim().replace(/^[-*\d.)\s]+/, "").replace(/\.$/, "")).filter((l) => l.length > 0)) {
      const reads = r.readAction(line);
      if (reads.length !== 1) continue;
      const ops = findOperator(r.task, reads[0]!.schema, reads[0]!.args);
      if (ops.length > 0) out.push(norm(r.task.opNames[ops[0]!]!));
    }
    return out;
  }

  /** The PDDL names of the facts `text` names in words, one per line or clause (null: no parser for the problem). */
  facts(domain: string, problem: string, text: string): string[] | null {
    const r = this.renderer(domain, problem);
    if (r === null) return null;
    const out: string[] = [];
    for (const line of text.split(/\n|;/).map((l) => l.trim().replace(/^[-*\d.)\s]+/, "").replace(/\.$/, "")).filter((l) => l.length > 0)) {
      const reads = r.readFact(line).filter((x) => x.pos);
      if (reads.length === 1) out.push(norm(`(${[reads[0]!.pred, ...reads[0]!.args.map((o) => r.task.objects[o]!)].join(" ")})`));
    }
    return out;
  }

  /** Is `plan` (PDDL actions) valid from the state the walk's `prefix` reaches? null: no problem to replay on, or a name it does not know. */
  validAfter(domain: string, problem: string, prefix: readonly string[], plan: readonly string[]): boolean | null {
    const r = this.renderer(domain, problem);
    if (r === null) return null;
    const t = r.task;
    const actions = new Actions(t);
    const byName = new Map(actions.all.map((a) => [norm(t.opNames[a]!), a]));
    const ops = (names: readonly string[]): number[] | null => {
      const out = names.map((n) => byName.get(norm(n)));
      return out.every((x) => x !== undefined) ? (out as number[]) : null;
    };
    const pre = ops(prefix);
    if (pre === null) return null;
    let s = t.init;
    for (const a of pre) {
      if (!actions.applicable(s, a)) return null;
      s = actions.apply(s, a);
    }
    const steps = ops(plan);
    return steps !== null && validPlan(t, s, steps, actions);
  }

  /** Facts that a progression answer says become true ("+") and false ("-"), in words. */
  changes(domain: string, problem: string, text: string): string[] | null {
    const r = this.renderer(domain, problem);
    if (r === null) return null;
    const out: string[] = [];
    for (const line of text.split("\n")) {
      const m = /^\s*becomes (true|false):\s*(.*?)\.?\s*$/i.exec(line);
      if (m === null) continue;
      for (const clause of m[2]!.split(";").map((c) => c.trim()).filter((c) => c.length > 0)) {
        const reads = r.readFact(clause).filter((x) => x.pos);
        if (reads.length === 1) out.push(`${m[1]!.toLowerCase() === "true" ? "+" : "-"}${norm(`(${[reads[0]!.pred, ...reads[0]!.args.map((o) => r.task.objects[o]!)].join(" ")})`)}`);
      }
    }
    return out;
  }
}

/** Is `answer` right for `g`? */
export function gradeAcp(g: AcpGoldItem, answer: string, reader: AcpTextReader | null): boolean {
  return readAndGrade(g, answer, reader).ok;
}

/**
 * Grade `answer` and say whether it could be read at all (an answer that cannot be read is wrong
 * and counted apart: answers.ts reads the forms models write).
 */
export function readAndGrade(g: AcpGoldItem, answer: string, reader: AcpTextReader | null): { ok: boolean; parsed: boolean } {
  const result = (ok: boolean, parsed = true): { ok: boolean; parsed: boolean } => ({ ok: ok && parsed, parsed });
  if (g.form === "yes-no") {
    const r = readYesNo(answer);
    return result(r === g.gold.answer, r !== null);
  }
  if (g.form === "choice") {
    const r = readChoice(answer);
    return result(r === g.gold.answer, r !== null);
  }
  const a = answerText(answer);
  if (g.kind === "unreachable-fact" || g.kind === "landmark-fact") return gradeFact(g, a, reader);
  if (g.kind === "plan-simplification") return gradePlan(g, a, reader);
  const same = (xs: string[], ys: string[]): boolean => xs.length === ys.length && [...xs].sort().every((x, i) => x === [...ys].sort()[i]);
  if (g.gold.accept !== null) {
    const accept = g.gold.accept.map(norm);
    if (/^\d+$/.test(accept[0] ?? "")) {
      const n = /\d+/.exec(a)?.[0];
      return result(n === accept[0], n !== undefined);
    }
    const named = atoms(a);
    if (named.length > 0) return result(named.length === 1 && accept.includes(named[0]!));
    const read = reader?.actions(g.domain, g.problem, a) ?? [];
    return result(read.length === 1 && accept.includes(read[0]!), read.length > 0);
  }
  const set = (g.gold.set ?? []).map(norm);
  if (set.length > 0 && /^[a-d]$/.test(set[0]!)) {
    const letters = [...new Set(a.toUpperCase().match(/\b[A-D]\b/g) ?? [])].map(norm);
    return result(same(letters, set), letters.length > 0);
  }
  // ACPBench's progression forms: "[(a), (b)] [(c)]", "Positive effects: ... Negative effects: ..."
  const lists = g.kind === "progression" ? readEffectLists(a) : null;
  if (lists !== null) {
    const signed = [...atoms(lists.add).map((x) => `+${x.replace(/^[+-]/, "")}`), ...atoms(lists.del).map((x) => `-${x.replace(/^[+-]/, "")}`)];
    return result(same([...new Set(signed)], set));
  }
  const named = atoms(a);
  if (named.length > 0 || set.length === 0) return result(same([...new Set(named)], set), named.length > 0 || set.length === 0);
  // in words: applicability lists actions, progression says what becomes true and false
  const read = g.kind === "progression" ? reader?.changes(g.domain, g.problem, a) : reader?.actions(g.domain, g.problem, a);
  return result(read !== undefined && read !== null && same([...new Set(read)], set), read !== undefined && read !== null && read.length > 0);
}

/**
 * An open fact question: the answer names one fact (PDDL "(at t1 l2)", ACPBench's bare
 * "at t1 l2", or the dataset's words), right when it is among every fact the engine proved
 * (`accept` is complete: see open-ended.ts). Two different facts are not one answer.
 */
function gradeFact(g: AcpGoldItem, a: string, reader: AcpTextReader | null): { ok: boolean; parsed: boolean } {
  const accept = new Set((g.gold.accept ?? []).map(norm));
  let named = [...new Set(atoms(a).map((x) => x.replace(/^[+-]/, "")))];
  if (named.length === 0) named = [...new Set(reader?.facts(g.domain, g.problem, a) ?? [])];
  if (named.length === 0) {
    // a bare atom on the last line: "at t1 l2"
    const bare = /^([a-z][\w-]*(?:\s+[\w-]+)*)\.?$/i.exec(a.split("\n").map((l) => l.trim()).filter((l) => l !== "").slice(-1)[0] ?? "");
    if (bare !== null) named = [`(${norm(bare[1]!)})`];
  }
  if (named.length === 0) return { ok: false, parsed: false };
  return { ok: named.length === 1 && accept.has(named[0]!), parsed: true };
}

/**
 * A simplified plan: the answer's steps in order (PDDL, or the dataset's words), right when they
 * are the question's plan with at least one step removed and replay to the goal from the
 * question's state (the problem from the gold folder's `pddl/`; without it, only the gold's own
 * example is known to be right).
 */
function gradePlan(g: AcpGoldItem, a: string, reader: AcpTextReader | null): { ok: boolean; parsed: boolean } {
  let steps = atoms(a).map((x) => x.replace(/^[+-]/, ""));
  if (steps.length === 0) steps = reader?.actions(g.domain, g.problem, a) ?? [];
  if (steps.length === 0) return { ok: false, parsed: false };
  const plan = (g.plan ?? []).map(norm);
  if (!isStrictSubsequence(plan, steps)) return { ok: false, parsed: true };
  const valid = reader?.validAfter(g.domain, g.problem, g.prefix ?? [], steps) ?? null;
  return { ok: valid ?? (g.gold.accept ?? []).map(norm).includes(norm(steps.join(" "))), parsed: true };
}

/** Grade `answers` (by id) against `gold`; every gold id needs an answer. */
export function scoreAcp(gold: readonly AcpGoldItem[], answers: ReadonlyMap<string, string>, reader: AcpTextReader | null, predFile: string): AcpScoreReport {
  const missing = gold.filter((g) => !answers.has(g.id));
  if (missing.length > 0) throw new UserError(`${predFile}: no answer for ${missing.length} of ${gold.length} questions (first: '${missing[0]!.id}')`);
  const tally = new Map<string, { n: number; ok: number }>();
  const add = (k: string, ok: boolean): void => {
    const t = tally.get(k) ?? { n: 0, ok: 0 };
    t.n++;
    if (ok) t.ok++;
    tally.set(k, t);
  };
  let unparsed = 0;
  const unparsedByForm: Record<string, number> = {};
  for (const g of gold) {
    const { ok, parsed } = readAndGrade(g, answers.get(g.id)!, reader);
    if (!parsed) {
      unparsed++;
      unparsedByForm[g.form] = (unparsedByForm[g.form] ?? 0) + 1;
    }
    for (const k of ["all", `kind:${g.kind}`, `form:${g.form}`, `kf:${g.kind}/${g.form}`, `domain:${g.domain}`]) add(k, ok);
  }
  const pick = (prefix: string): Record<string, { n: number; accuracy: number }> =>
    Object.fromEntries([...tally].filter(([k]) => k.startsWith(prefix)).sort().map(([k, t]) => [k.slice(prefix.length), { n: t.n, accuracy: Math.round((10000 * t.ok) / t.n) / 100 }]));
  const all = tally.get("all") ?? { n: 0, ok: 0 };
  return { n: all.n, accuracy: all.n === 0 ? 0 : Math.round((10000 * all.ok) / all.n) / 100, unparsed, unparsed_by_form: unparsedByForm, by_kind: pick("kind:"), by_form: pick("form:"), by_kind_form: pick("kf:"), by_domain: pick("domain:") };
}

/** The terminal rendering of an ACP report. */
export function formatAcpReport(r: AcpScoreReport): string {
  const forms = Object.entries(r.unparsed_by_form).map(([f, n]) => `${f} ${n}`).join(", ");
  const out = [`reasoning questions: ${r.n}, accuracy ${r.accuracy.toFixed(1)}; answers that could not be read (graded wrong): ${r.unparsed}${forms !== "" ? ` (${forms})` : ""}`, ""];
  const rows = (label: string, m: Record<string, { n: number; accuracy: number }>) => Object.entries(m).map(([k, v]) => `${`${label} ${k}`.padEnd(40)}${String(v.n).padStart(7)}${v.accuracy.toFixed(1).padStart(9)}`);
  out.push(`${"".padEnd(40)}${"n".padStart(7)}${"accuracy".padStart(9)}`, ...rows("kind", r.by_kind), ...rows("form", r.by_form), ...rows("kind/form", r.by_kind_form), ...rows("domain", r.by_domain));
  return out.join("\n");
}

/** The JSON objects of a .jsonl[.gz] file or dataset folder, with where each came from. */
function objects(path: string, split?: string): { file: string; line: number; obj: Record<string, unknown> }[] {
  const out: { file: string; line: number; obj: Record<string, unknown> }[] = [];
  for (const { file, text } of readJsonlSource(path, split)) {
    text.split("\n").forEach((l, i) => {
      if (l.trim() === "") return;
      let obj: unknown;
      try {
        obj = JSON.parse(l);
      } catch {
        throw new UserError(`${file}:${i + 1}: invalid JSON`);
      }
      if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new UserError(`${file}:${i + 1}: expected a JSON object`);
      out.push({ file, line: i + 1, obj: obj as Record<string, unknown> });
    });
  }
  return out;
}

/** Does the gold source hold reasoning questions (its first row is one)? */
export function isAcpGold(path: string, split?: string): boolean {
  const first = objects(path, split)[0];
  return first !== undefined && isAcpRow(first.obj);
}

/** `pddl2prm score GOLD PRED` on reasoning questions: PRED holds `{id, answer}` per question. */
export function scoreAcpFiles(goldPath: string, predPath: string, split?: string): AcpScoreReport & { unmatched: string[] } {
  const gold: AcpGoldItem[] = [];
  const ids = new Set<string>();
  for (const { file, line, obj } of objects(goldPath, split)) {
    if (!isAcpRow(obj)) throw new UserError(`${file}:${line}: not a reasoning question row (kind, form, meta.gold)`);
    const g = acpGoldOf(obj);
    if (ids.has(g.id)) throw new UserError(`${file}:${line}: duplicate gold id '${g.id}'`);
    ids.add(g.id);
    gold.push(g);
  }
  const answers = new Map<string, string>();
  for (const { file, line, obj } of objects(predPath)) {
    const id = obj["id"];
    if (typeof id !== "string") throw new UserError(`${file}:${line}: no string 'id'`);
    if (typeof obj["answer"] !== "string") throw new UserError(`${file}:${line}: expected 'answer' (a string) for a reasoning question`);
    if (answers.has(id)) throw new UserError(`${file}:${line}: duplicate id '${id}'`);
    answers.set(id, obj["answer"]);
  }
  const reader = existsSync(join(goldPath, "pddl")) ? new AcpTextReader(goldPath) : null;
  return { ...scoreAcp(gold, answers, reader, predPath), unmatched: [...answers.keys()].filter((id) => !ids.has(id)) };
}
