import { FORMAT_CONSUMERS, isEvalFormat, isFormat } from "./formats.js";
import { PLOT_FILES } from "./plots.js";
import type { Manifest } from "./records.js";
import { CATEGORIES, SPLITS } from "./row.js";

const yamlList = (items: string[], indent: string) => items.map((i) => `${indent}- ${i}`).join("\n");

const f = (name: string, type: string, ind = "  ") => `${ind}- name: ${name}\n${ind}  ${type}`;
const s = (name: string, ind = "  ") => f(name, "dtype: string", ind);
const i = (name: string, ind = "  ") => f(name, "dtype: int64", ind);
const d = (name: string, ind = "  ") => f(name, "dtype: float64", ind);
const b = (name: string, ind = "  ") => f(name, "dtype: bool", ind);
const seq = (name: string, t: string, ind = "  ") => `${ind}- name: ${name}\n${ind}  sequence: ${t}`;
const struct = (name: string, fields: string[], ind = "  ") => [`${ind}- name: ${name}`, `${ind}  struct:`, ...fields].join("\n");
/** A list of chat messages (TRL's conversational layout), with extra message fields. */
const messages = (name: string, ...extra: string[]) => [`  - name: ${name}`, "    list:", s("role", "    "), s("content", "    "), ...extra].join("\n");

/** Hugging Face `dataset_info.features` (YAML) for each output format (labels declared float64). */
export function features(format: string, chat: boolean, style?: string): string {
  switch (format) {
    case "trl":
      return [s("id"), s("prompt"), seq("completions", "string"), seq("labels", "bool"), seq("rewards", "float64"), s("category")].join("\n");
    case "openrlhf":
      return [s("id"), s("input"), seq("value", "string"), seq("rewards", "float64"), s("category")].join("\n");
    case "math-shepherd":
      return [s("id"), s("input"), s("label"), s("task"), s("category")].join("\n");
    case "pairs":
    case "trajectories":
    case "processbench":
      return evalFeatures(format, chat);
    case "feedback":
    case "verifier":
      return productFeatures(format, chat, style);
    default:
      return [
        s("id"),
        s("domain"),
        s("problem"),
        s("split"),
        s("prompt"),
        seq("completions", "string"),
        seq("labels", "float64"),
        s("category"),
        s("critique"),
        struct("meta", [
          i("state_index", "    "), seq("prefix", "string", "    "), s("action", "    "), d("h_before", "    "), d("h_after", "    "),
          d("cost", "    "), d("extra_cost", "    "), seq("failed_preconditions", "string", "    "), i("revisits", "    "),
          i("backtrack_to", "    "), s("dead_end_proof", "    "), i("plan_length", "    "), i("seed", "    "),
        ]),
      ].join("\n");
  }
}

/** Features of the evaluation formats (src/products/pairs.ts, trajectories.ts, processbench.ts). */
function evalFeatures(format: string, chat: boolean): string {
  const head = [s("id"), s("level"), s("domain"), s("problem"), s("split")];
  const pref = chat ? [messages("prompt"), messages("chosen"), messages("rejected")] : [s("prompt"), s("chosen"), s("rejected")];
  if (format === "pairs") {
    const side = (n: string) => [s(`${n}_action`), s(`${n}_category`), d(`${n}_reward`)];
    return [
      ...head,
      ...pref,
      d("margin"),
      ...side("chosen"),
      ...side("rejected"),
      s("edit"),
      s("first"),
      struct("meta", [
        i("state_index", "    "), seq("prefix_actions", "string", "    "), d("h_before", "    "), d("chosen_extra_cost", "    "),
        d("rejected_extra_cost", "    "), seq("failed_preconditions", "string", "    "), i("plan_length", "    "), i("seed", "    "),
      ]),
    ].join("\n");
  }
  if (format === "trajectories") {
    const side = (n: string) => [seq(`${n}_actions`, "string"), b(`${n}_valid`), d(`${n}_cost`), i(`${n}_length`), i(`${n}_first_error`), seq(`${n}_rewards`, "float64")];
    return [
      ...head,
      ...pref,
      d("margin"),
      s("first"),
      s("perturbation"),
      ...side("chosen"),
      ...side("rejected"),
      struct("meta", [i("position", "    "), d("optimal_cost", "    "), s("longer", "    "), s("length_fit", "    "), s("error_category", "    "), i("seed", "    ")]),
    ].join("\n");
  }
  return [
    s("id"),
    s("problem"),
    seq("steps", "string"),
    i("label"),
    struct("meta", [
      s("domain", "    "), s("problem_id", "    "), s("split", "    "), s("error_def", "    "), s("category", "    "), s("continuation", "    "),
      seq("actions", "string", "    "), seq("step_rewards", "float64", "    "), seq("step_categories", "string", "    "), i("length", "    "),
      s("length_bucket", "    "), i("plan_length", "    "), d("optimal_cost", "    "), i("seed", "    "),
    ]),
  ].join("\n");
}

/** Features of the products of src/products written as formats (feedback, verifier). */
function productFeatures(format: string, chat: boolean, style?: string): string {
  const head = [s("id"), s("domain"), s("problem"), s("split")];
  const m = (f: (n: string, ind: string) => string, n: string) => f(n, "    ");
  const seqm = (n: string, t: string) => seq(n, t, "    ");
  if (format === "feedback") {
    const meta = [seqm("actions", "string"), seqm("categories", "string"), seqm("mistakes", "string"), m(s, "outcome"), m(d, "cost"), m(d, "optimal_cost"), m(i, "plan_length"), m(i, "seed")];
    // (a feedback folder without a recorded style is an older one: dialogues)
    if (style === "turns") {
      return [...head, messages("prompt", d("reward", "    ")), messages("completion", d("reward", "    ")), struct("meta", [...meta, m(i, "turn"), m(b, "recovery")])].join("\n");
    }
    return [...head, messages("messages", d("reward", "    ")), struct("meta", meta)].join("\n");
  }
  return [
    ...head,
    chat ? messages("prompt") : s("prompt"),
    chat ? messages("completion") : s("completion"),
    i("label"),
    d("score"),
    struct("meta", [
      m(s, "style"), m(s, "error_def"), m(s, "category"), seqm("actions", "string"), seqm("step_rewards", "float64"), seqm("step_categories", "string"),
      m(i, "length"), m(s, "length_bucket"), m(i, "plan_length"), m(d, "optimal_cost"), m(i, "seed"),
    ]),
  ].join("\n");
}

/** The dataset card README.md with YAML front matter that `datasets.load_dataset` understands. */
export function datasetCard(m: Manifest): string {
  const format = String(m.config["format"] ?? "native");
  const gz = m.config["gzip"] ? ".gz" : "";
  // only splits with rows: `datasets` fails on a listed split that has no data
  const present = SPLITS.filter((s) => (m.counts.by_split[s] ?? 0) > 0);
  const configs = present.map((s) => `    - split: ${s}\n      path: data/${s}-*.jsonl${gz}`).join("\n");
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
${features(format, m.config["chat"] === true, typeof m.config["style"] === "string" ? m.config["style"] : undefined)}
  splits:${present.length === 0 ? " []" : "\n" + splitsInfo}
---

# pddl2prm step-reward dataset

Step-level rewards for Process Reward Models, labelled exactly by an optimal planner
(pddl2prm ${m.version}, format \`${format}\`, seed ${m.seed}). Each row is a planning problem in
natural language, a prefix of optimal steps, and one candidate next step with its reward:
non-executable 0.0, dead-end 0.25, backtracking 0.5, suboptimal 0.75, optimal 1.0.

Domains:
${yamlList(domains, "")}

| category | ${isEvalFormat(format) ? "labelled walk candidates behind the rows" : "rows"} |
|---|---|
${catLines}

| domain | rows |
|---|---|
${domLines}

Total: ${m.rows} rows from ${m.problems.labelled} problems (${partialNote(m)}${m.problems.skipped.length} skipped, see
\`manifest.json\`). The PDDL of every problem is under \`pddl/\`; \`meta.prefix\` and
\`meta.action\` replay each row. Counts per domain, split and category are in \`stats.csv\`.
${lengthNote(m)}${auditNote(m)}
## Trainer

Format \`${format}\`${m.config["chat"] === true ? " (conversational, `--chat`)" : ""}: ${isFormat(format) ? FORMAT_CONSUMERS[format] : "unknown format"}.
pddl2prm's \`docs/training.md\` has the exact training commands.

## Plots

![Category mix per domain](${PLOT_FILES.categories})

![Optimal plan length per domain](${PLOT_FILES.planLengths})
`;
}

/** The shortcut audit's headline (src/audit), if it was run. */
function auditNote(m: Manifest): string {
  const a = m.audit;
  if (a === undefined) return "";
  const failed = a.failed.map((f) => `\n- ${f}`).join("");
  return `\n## Shortcut audit\n\n\`pddl2prm audit\` (surface rules and classifiers that read no state): ${a.summary}.${failed}\n`;
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
