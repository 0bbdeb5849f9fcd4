import { features, featuresYaml } from "./features.js";
import { FORMAT_CONSUMERS, isEvalFormat, isFormat } from "./formats.js";
import { PLOT_FILES } from "./plots.js";
import { ACP_KINDS } from "../reasoning/questions.js";
import type { Manifest } from "./records.js";
import { CATEGORIES, SPLITS } from "./row.js";

const yamlList = (items: string[], indent: string) => items.map((i) => `${indent}- ${i}`).join("\n");

/** The dataset card README.md with YAML front matter that `datasets.load_dataset` understands. */
export function datasetCard(m: Manifest): string {
  const format = String(m.config["format"] ?? "native");
  const ext = m.config["parquet"] === true ? "parquet" : m.config["gzip"] ? "jsonl.gz" : "jsonl";
  // only splits with rows: `datasets` fails on a listed split that has no data
  const present = SPLITS.filter((s) => (m.counts.by_split[s] ?? 0) > 0);
  const configs = present.map((s) => `    - split: ${s}\n      path: data/${s}-*.${ext}`).join("\n");
  const splitsInfo = present.map((s) => `  - name: ${s}\n    num_examples: ${m.counts.by_split[s] ?? 0}`).join("\n");
  const domains = Object.keys(m.counts.by_domain).sort();
  const catLines = CATEGORIES.map((c) => `| ${c} | ${m.counts.by_category[c]} |`).join("\n");
  const domLines = domains.map((d) => `| ${d} | ${m.counts.by_domain[d]} |`).join("\n");
  return `---
license: mit
task_categories:
- text-classification
tags:
- process-reward-model
- planning
- pddl
configs:
- config_name: default
  data_files:${present.length === 0 ? " []" : "\n" + configs}
dataset_info:
  features:
${featuresYaml(features(format, m.config["chat"] === true, typeof m.config["style"] === "string" ? m.config["style"] : undefined))}
  splits:${present.length === 0 ? " []" : "\n" + splitsInfo}
---

${format === "rl" ? rlIntro(m) : format === "acp" ? acpIntro(m) : stepIntro(m, format)}
Domains:
${yamlList(domains, "")}
${format === "rl" || format === "acp" ? "" : `
| category | ${isEvalFormat(format) ? "labelled walk candidates behind the rows" : "rows"} |
|---|---|
${catLines}
`}
| domain | rows |
|---|---|
${domLines}

Total: ${m.rows} rows from ${m.problems.labelled} problems (${partialNote(m)}${m.problems.skipped.length} skipped, see
\`manifest.json\`). The PDDL of every problem is under \`pddl/\`${format === "rl" ? "" : format === "acp" ? "; `meta.prefix` replays the state a\nquestion is asked in" : "; `meta.prefix` and\n`meta.action` replay each row"}. Counts per domain, split and category are in \`stats.csv\`.
${lengthNote(m)}${auditNote(m, format)}
## Trainer

Format \`${format}\`${m.config["chat"] === true ? " (conversational, `--chat`)" : ""}: ${isFormat(format) ? FORMAT_CONSUMERS[format] : "unknown format"}.
pddl2prm's \`${format === "rl" ? "docs/rl.md" : "docs/training.md"}\` has the exact training commands.

## Plots

![Category mix per domain](${PLOT_FILES.categories})

![Optimal plan length per domain](${PLOT_FILES.planLengths})
`;
}

/** The shortcut audit's headline (src/audit), if it was run. */
function auditNote(m: Manifest, format: string): string {
  const a = m.audit;
  if (a === undefined) return "";
  const failed = a.failed.map((f) => `\n- ${f}`).join("");
  // (a question's answer is its label: what its words and its options' form give away without the state)
  const what = format === "acp" ? "how well a question's words, or an option's form, give its answer away against its kind and item, reading no state" : "surface rules and classifiers that read no state";
  return `\n## Shortcut audit\n\n\`pddl2prm audit\` (${what}): ${a.summary}.${failed}\n`;
}

/** What `--max-length` dropped, if it was given. */
/** "N labelled in part (...); " when a limit cut some walks short, else nothing (older manifests have no list). */
function partialNote(m: Manifest): string {
  const n = m.problems.partial?.length ?? 0;
  if (n === 0) return "";
  const cut = m.problems.partial.reduce((a, p) => a + p.states_cut, 0);
  return `${n} labelled in part: a limit cut ${cut} later state${cut === 1 ? "" : "s"} of ${n === 1 ? "its walk" : "their walks"}, the states before are whole; `;
}

function lengthNote(m: Manifest): string {
  const d = m.dropped;
  if (d === undefined || d.max_length === null) return "";
  const how = d.counted_with === "estimate" ? "estimated without a tokenizer" : `counted with \`${d.counted_with}\``;
  return `\nRows longer than ${d.max_length} tokens in their trainer (${how}) were dropped, so that no row loses its last label to truncation: ${d.rows} rows (per domain in \`manifest.json\`).\n`;
}

function stepIntro(m: Manifest, format: string): string {
  return `# pddl2prm step-reward dataset

Step-level rewards for Process Reward Models, labelled exactly by an optimal planner
(pddl2prm ${m.version}, format \`${format}\`, seed ${m.seed}). Each row is a planning problem in
natural language, a prefix of optimal steps, and one candidate next step with its reward:
non-executable 0.0, dead-end 0.25, backtracking 0.5, suboptimal 0.75, optimal 1.0.
`;
}

function acpIntro(m: Manifest): string {
  return `# pddl2prm reasoning questions

Questions about planning states with exact answers, in the manner of ACPBench (pddl2prm ${m.version},
format \`acp\`, seed ${m.seed}). Each row asks one question in natural language about a state of a
problem's optimal walk, of one of ${ACP_KINDS.length} kinds (${ACP_KINDS.join(", ")}), as a yes/no
question, a choice of four options or a free answer (\`kind\`, \`form\`).
\`answer\` is the gold answer, proved by the engine (the state, the effects, the relaxation, an
exhaustive search where needed); \`meta.gold\` holds what a free answer is graded against, and
\`pddl2prm score\` grades a model's answers per kind and form. Yes/no answers are balanced per
problem and kind, and the right option's letter is drawn evenly.
`;
}

function rlIntro(m: Manifest): string {
  return `# pddl2prm RL prompts

Prompts for online reinforcement learning with verifiable rewards (pddl2prm ${m.version}, format
\`rl\`, seed ${m.seed}): one row per planning problem, asking for a plan one step per line
(\`step_syntax\`). Each row carries what its reward needs: \`domain_pddl\`, \`problem_pddl\`, their
\`pddl_sha256\`, \`optimal_cost\` (also as verl's \`reward_model.ground_truth\` and \`extra_info\`).
\`pddl2prm reward\` (or the Python glue in pddl2prm's \`python/pddl2prm_rl.py\`) turns an answer into an
outcome reward, exact per-step rewards (non-executable 0.0, dead-end 0.25, backtracking 0.5,
suboptimal 0.75, optimal 1.0) and their mix; \`answer\` is an optimal plan, for reference.
`;
}
