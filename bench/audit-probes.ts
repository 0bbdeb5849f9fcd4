/**
 * bench/audit-probes: the audit's probes per domain, on a step-row folder (native, trl, ...):
 * how well each class is found (average precision, one against the rest, on the held-out
 * problems) from the action alone, and what the previous step's action, its text and the
 * prompt add. The previous action says a lot that is true (an undo is backtracking): this is
 * the bar a PRM must beat; its text and the prompt must add nothing beyond noise.
 *
 *   node dist/bench/audit-probes.js DATASET_DIR [--out FILE]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAudit, type AuditReport } from "../src/audit/index.js";

const dir = process.argv[2];
const outAt = process.argv.indexOf("--out");
if (dir === undefined || dir.startsWith("--") || !existsSync(join(dir, "config.json"))) {
  console.error("usage: node dist/bench/audit-probes.js DATASET_DIR [--out FILE]  (a pddl2prm dataset folder of a step format)");
  process.exit(2);
}
const config = (JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as { config: Record<string, unknown> }).config;
const listed = config["domains"];
const names = Array.isArray(listed) ? listed.map(String) : [];
if (names.length === 0) {
  console.error(`bench/audit-probes: ${dir}: its config.json lists no domains (a folder of built-in domains)`);
  process.exit(2);
}

const f3 = (x: number): string => x.toFixed(3);
const sg = (x: number): string => (x >= 0 ? "+" : "") + x.toFixed(3);
/** Macro mean over the classes of a probe: prior AP, probe AP, gain, and the gain's se (root mean square of the classes' se over their count). */
function macro(r: AuditReport, probe: string): { prior: number; probe: number; gain: number; se: number; classes: number } {
  const ps = r.probes.filter((p) => p.probe === probe);
  const m = (f: (p: (typeof ps)[number]) => number): number => ps.reduce((a, p) => a + f(p), 0) / Math.max(1, ps.length);
  return { prior: m((p) => p.prior), probe: m((p) => p.probe_value), gain: m((p) => p.gain), se: Math.sqrt(m((p) => p.se * p.se) / Math.max(1, ps.length)), classes: ps.length };
}

const lines: string[] = [];
const perClass: string[] = [];
lines.push(`audit probes per domain: ${dir} (format ${String(config["format"])}); macro average precision over the classes on the held-out problems`);
lines.push("");
lines.push("| domain | rows | action | + previous action (gain) | + previous step's text (gain, se) | + prompt (gain, se) | audit |");
lines.push("|---|---|---|---|---|---|---|");
const started = Date.now();
for (const d of ["all", ...names.sort()]) {
  const r = await runAudit(dir, d === "all" ? {} : { domain: d });
  const prev = macro(r, "previous step: action");
  const text = macro(r, "previous step: text");
  const prompt = macro(r, "prompt");
  lines.push(`| ${d} | ${r.units} | ${f3(prev.prior)} | ${f3(prev.probe)} (${sg(prev.gain)}) | ${f3(text.probe)} (${sg(text.gain)}, ${f3(text.se)}) | ${f3(prompt.probe)} (${sg(prompt.gain)}, ${f3(prompt.se)}) | ${r.pass ? "pass" : "FAIL"} |`);
  for (const p of r.probes) if (p.probe === "previous step: action" || p.probe === "previous step: text" || p.probe === "prompt") {
    perClass.push(`${d.padEnd(18)}${p.probe.padEnd(24)}${p.group.padEnd(16)}${String(p.n).padStart(6)}  ${f3(p.prior)} -> ${f3(p.probe_value)}  ${sg(p.gain)} (se ${f3(p.se)})  ${p.top.join(" ")}`);
  }
  process.stderr.write(`${d}: ${r.units} rows, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
lines.push("");
lines.push("Per class (probe: prior AP -> probe AP, gain and its standard error, the probe's heaviest features):");
lines.push(...perClass);
const text = lines.join("\n") + "\n";
if (outAt > 0 && process.argv[outAt + 1] !== undefined) writeFileSync(process.argv[outAt + 1]!, text);
process.stdout.write(text);
