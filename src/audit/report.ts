/** The audit's table for people, and its one-line headline for the dataset card. */
import type { AuditHeadline } from "../dataset/records.js";
import { MIN_HELD_OUT_PROBLEMS, type AuditReport, type RuleResult } from "./audit.js";

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "-");
const sign = (x: number): string => (Number.isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(3) : "-");
const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));
const lpad = (s: string, n: number): string => (s.length >= n ? s : " ".repeat(n - s.length) + s);

/**
 * A feature as a JSON string whose every character outside printable ASCII is escaped
 * ("\u00a0", "\u043e", "\n"), but the raw probe's own marks (␂␃⟨⟩): a planted no-break space or
 * look-alike letter must be read, not guessed.
 */
export function shownFeature(x: string): string {
  return JSON.stringify(x).replace(/[^\x20-\x7e␂␃⟨⟩]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** What the raw probe's features write (src/audit/raw.ts), printed once under a table that shows them. */
const RAW_LEGEND =
  "raw form features: r: the unit's own text, rc: a character of it outside printable ASCII, rq: the text around it (a chain's problem, the message before a turn), qc: its characters, " +
  "id1.. the id's segments, k: the row's keys, f: another string field; a⟨s⟩b is word a, then the characters s exactly as written, then word b " +
  "(a number reads 9, 09 zero-padded; ␂ and ␃ are the start and end of the text)";

function ruleLine(r: RuleResult): string {
  const fires = r.fires !== undefined ? `  fires on ${r.fires}${r.share != null ? `, ${(r.share * 100).toFixed(1)}% one label` : ""}` : "";
  return `${pad(r.name, 44)}${pad(r.group, 16)}${pad(r.measure, 8)}${lpad(String(r.n), 8)}${lpad(f3(r.value), 8)}${lpad(f3(r.score), 8)}${fires}`;
}

/** The audit as a table (what `pddl2prm audit` prints). */
export function formatAuditTable(r: AuditReport): string {
  const out: string[] = [];
  const units = r.format === "feedback" ? "assistant turns" : r.unit === "step" ? "rows" : r.unit === "chain" ? "chains" : "pairs";
  out.push(`audit of ${r.dir}: format ${r.format}, ${r.units} ${units}; target: ${r.target}`);
  out.push(`classifiers trained on ${r.split.train}, scored on ${r.split.test} (${r.split.source === "splits" ? "train / test splits" : `a third of the problems by hash: no test split, or fewer than ${MIN_HELD_OUT_PROBLEMS} problems held out`})`);
  if (r.sample) out.push(`sampled: the rows of ${(r.sample.rate * 100).toFixed(1)}% of the problems (by id hash) of ${r.sample.rows}`);
  if (r.actions_parsed) out.push(`actions parsed back from step text: ${r.actions_parsed.asked - r.actions_parsed.failed} of ${r.actions_parsed.asked}`);
  out.push("");
  out.push(`${pad("baseline (test split)", 40)}${lpad("accuracy", 10)}${lpad("macro-F1", 10)}`);
  out.push(`${pad(`majority class (${r.majority.label})`, 40)}${lpad(f3(r.majority.accuracy), 10)}${lpad(f3(r.majority.macro_f1), 10)}`);
  out.push(`${pad("action type only (logistic regr.)", 40)}${lpad(f3(r.classifiers.action.accuracy), 10)}${lpad(f3(r.classifiers.action.macro_f1), 10)}`);
  out.push(`${pad("words of the text (logistic regr.)", 40)}${lpad(f3(r.classifiers.text.accuracy), 10)}${lpad(f3(r.classifiers.text.macro_f1), 10)}`);
  const c = r.classifiers;
  out.push(`${pad("text minus action", 40)}${lpad(f3(c.text.accuracy - c.action.accuracy), 10)}${lpad(f3(c.gap), 10)}  (se ${f3(c.gap_se)}; log-likelihood gain ${f3(c.loglik_gain)}, se ${f3(c.loglik_gain_se)})`);
  out.push("");
  out.push(`${pad("single-row rule", 44)}${pad("group", 16)}${pad("measure", 8)}${lpad("n", 8)}${lpad("value", 8)}${lpad("score", 8)}`);
  for (const x of r.rules) out.push(ruleLine(x));
  if (r.probes.length > 0) {
    out.push("");
    out.push(`${pad("probe (what a view adds to the action)", 44)}${pad("class", 16)}${pad("measure", 8)}${lpad("n", 8)}${lpad("prior", 8)}${lpad("probe", 8)}${lpad("gain", 8)}${lpad("se", 7)}`);
    for (const p of r.probes) {
      const top = p.gain > 0.01 && p.top.length > 0 ? `  ${p.top.map(shownFeature).join(" ")}` : "";
      out.push(`${pad(p.probe + (p.gated ? "" : " (reported)"), 44)}${pad(p.group, 16)}${pad(p.measure, 8)}${lpad(String(p.n), 8)}${lpad(f3(p.prior), 8)}${lpad(f3(p.probe_value), 8)}${lpad(sign(p.gain), 8)}${lpad(f3(p.se), 7)}${top}`);
    }
  }
  if (r.option_probes.length > 0) {
    out.push("");
    out.push(`${pad("option form: the odd one out", 44)}${pad("kind/form", 28)}${lpad("n", 8)}${lpad("chance", 8)}${lpad("pick", 8)}${lpad("gain", 8)}${lpad("se", 7)}`);
    for (const p of r.option_probes) out.push(`${pad(p.probe, 44)}${pad(p.group, 28)}${lpad(String(p.n), 8)}${lpad(f3(p.chance), 8)}${lpad(f3(p.value), 8)}${lpad(sign(p.gain), 8)}${lpad(f3(p.se), 7)}`);
  }
  out.push("");
  const failed = r.checks.filter((c) => !c.pass);
  out.push(`checks: ${r.checks.length - failed.length} of ${r.checks.length} pass`);
  for (const c of failed) out.push(`  FAIL ${c.name} [${c.group}]: ${f3(c.value)}, limit ${c.limit}${c.features && c.features.length > 0 ? `; features: ${c.features.map(shownFeature).join(", ")}` : ""}`);
  if (failed.some((c) => c.name.includes("raw form"))) out.push(`  (${RAW_LEGEND})`);
  // counts are shown when they pass too: a zero is a finding
  for (const c of r.checks) if (c.pass && c.name.endsWith("(count)")) out.push(`  ok   ${c.name} [${c.group}]: ${c.value}, limit ${c.limit}`);
  out.push(r.pass ? "audit: pass" : "audit: FAIL");
  return out.join("\n");
}

/** The audit's headline: pass or fail and the figures the card shows. */
export function auditHeadline(r: AuditReport): AuditHeadline {
  const failed = r.checks.filter((c) => !c.pass);
  const best = r.best_rule;
  const parts = [
    `text-minus-action gap ${f3(r.classifiers.gap)} macro-F1 (text ${f3(r.classifiers.text.macro_f1)}, action type ${f3(r.classifiers.action.macro_f1)}, majority class ${f3(r.majority.macro_f1)})`,
    best ? `best single-row rule: ${best.name}${best.group !== "all" ? ` [${best.group}]` : ""} ${f3(best.score)}` : "no single-row rule",
  ];
  const pos = r.rules.find((x) => x.name === "candidate position");
  if (pos) parts.push(`candidate position AUC ${f3(pos.value)}`);
  // questions: the option that stands out by its form, at its best against chance
  const odd = r.option_probes.reduce<AuditReport["option_probes"][number] | null>((b, p) => (b === null || p.gain > b.gain ? p : b), null);
  if (odd) parts.push(`best odd-one-out option rule: ${odd.probe} [${odd.group}] ${sign(odd.gain)} over chance`);
  const rep = r.rules.find((x) => x.name === "repeated object" && x.fires !== undefined);
  if (rep) parts.push(`rows naming an object twice: ${rep.fires}`);
  return {
    pass: r.pass,
    summary: `${r.pass ? "pass" : `FAIL (${failed.length} of ${r.checks.length} checks)`}${r.sample ? ` (on the rows of ${(r.sample.rate * 100).toFixed(1)}% of the problems)` : ""}: ${parts.join("; ")}`,
    failed: failed.map((c) => `${c.name} [${c.group}]: ${f3(c.value)}, limit ${c.limit}`),
  };
}
