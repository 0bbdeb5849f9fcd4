import type { Manifest } from "./records.js";
import { CATEGORIES, SPLITS } from "./row.js";

const yamlList = (items: string[], indent: string) => items.map((i) => `${indent}- ${i}`).join("\n");

/** Hugging Face `dataset_info.features` for each output format (labels declared float64). */
function features(format: string): string {
  const str = (n: string) => `  - name: ${n}\n    dtype: string`;
  switch (format) {
    case "trl":
      return [str("id"), str("prompt"), "  - name: completions\n    sequence: string", "  - name: labels\n    sequence: bool", "  - name: rewards\n    sequence: float64", str("category")].join("\n");
    case "openrlhf":
      return [str("id"), str("input"), "  - name: label\n    sequence: float64", str("category")].join("\n");
    case "math-shepherd":
      return [str("id"), str("input"), str("label"), str("category")].join("\n");
    case "pairs":
    case "trajectories":
    case "processbench":
      return evalFeatures(format);
    default:
      return [
        str("id"),
        str("domain"),
        str("problem"),
        str("split"),
        str("prompt"),
        "  - name: completions\n    sequence: string",
        "  - name: labels\n    sequence: float64",
        str("category"),
        str("critique"),
        "  - name: meta",
        "    struct:",
        "    - name: state_index\n      dtype: int64",
        "    - name: prefix\n      sequence: string",
        "    - name: action\n      dtype: string",
        "    - name: h_before\n      dtype: float64",
        "    - name: h_after\n      dtype: float64",
        "    - name: cost\n      dtype: float64",
        "    - name: extra_cost\n      dtype: float64",
        "    - name: failed_preconditions\n      sequence: string",
        "    - name: revisits\n      dtype: int64",
        "    - name: backtrack_to\n      dtype: int64",
        "    - name: dead_end_proof\n      dtype: string",
        "    - name: plan_length\n      dtype: int64",
        "    - name: seed\n      dtype: int64",
      ].join("\n");
  }
}

/** Features of the evaluation formats (src/dataset/pairs.ts, trajectories.ts, processbench.ts). */
function evalFeatures(format: string): string {
  const f = (name: string, type: string, ind = "  ") => `${ind}- name: ${name}\n${ind}  ${type}`;
  const s = (name: string, ind = "  ") => f(name, "dtype: string", ind);
  const i = (name: string, ind = "  ") => f(name, "dtype: int64", ind);
  const d = (name: string, ind = "  ") => f(name, "dtype: float64", ind);
  const b = (name: string, ind = "  ") => f(name, "dtype: bool", ind);
  const seq = (name: string, t: string, ind = "  ") => `${ind}- name: ${name}\n${ind}  sequence: ${t}`;
  const struct = (name: string, fields: string[], ind = "  ") => [`${ind}- name: ${name}`, `${ind}  struct:`, ...fields].join("\n");
  const head = [s("id"), s("level"), s("domain"), s("problem"), s("split"), s("prompt")];
  if (format === "pairs") {
    const sideF = (n: string) => struct(n, [s("text", "    "), s("action", "    "), s("category", "    "), d("reward", "    ")]);
    return [
      ...head,
      seq("prefix", "string"),
      sideF("chosen"),
      sideF("rejected"),
      d("reward_gap"),
      s("edit"),
      s("first"),
      struct("meta", [
        i("state_index", "    "), seq("prefix_actions", "string", "    "), d("h_before", "    "), d("chosen_extra_cost", "    "),
        d("rejected_extra_cost", "    "), seq("failed_preconditions", "string", "    "), i("plan_length", "    "), i("seed", "    "),
      ]),
    ].join("\n");
  }
  if (format === "trajectories") {
    const sideF = (n: string) =>
      struct(n, [seq("steps", "string", "    "), seq("actions", "string", "    "), b("valid", "    "), d("cost", "    "), i("length", "    "), i("first_error", "    "), seq("rewards", "float64", "    ")]);
    return [
      ...head,
      s("first"),
      sideF("chosen"),
      sideF("rejected"),
      s("perturbation"),
      struct("meta", [i("position", "    "), d("optimal_cost", "    "), s("longer", "    "), s("error_category", "    "), i("seed", "    ")]),
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

/** The dataset card README.md with YAML front matter that `datasets.load_dataset` understands. */
export function datasetCard(m: Manifest): string {
  const format = String(m.config["format"] ?? "native");
  const gz = m.config["gzip"] ? ".gz" : "";
  const configs = SPLITS.map((s) => `    - split: ${s}\n      path: data/${s}-*.jsonl${gz}`).join("\n");
  const splitsInfo = SPLITS.map((s) => `  - name: ${s}\n    num_examples: ${m.counts.by_split[s] ?? 0}`).join("\n");
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
  data_files:
${configs}
dataset_info:
  features:
${features(format)}
  splits:
${splitsInfo}
---

# pddl2prm step-reward dataset

Step-level rewards for Process Reward Models, labelled exactly by an optimal planner
(pddl2prm ${m.version}, format \`${format}\`, seed ${m.seed}). Each row is a planning problem in
natural language, a prefix of optimal steps, and one candidate next step with its reward:
non-executable 0.0, dead-end 0.25, backtracking 0.5, suboptimal 0.75, optimal 1.0.

Domains:
${yamlList(domains, "")}

| category | ${["pairs", "trajectories", "processbench"].includes(format) ? "labelled walk candidates behind the rows" : "rows"} |
|---|---|
${catLines}

| domain | rows |
|---|---|
${domLines}

Total: ${m.rows} rows from ${m.problems.labelled} problems (${m.problems.skipped.length} skipped, see
\`manifest.json\`). The PDDL of every problem is under \`pddl/\`; \`meta.prefix\` and
\`meta.action\` replay each row. Counts per domain, split and category are in \`stats.csv\`.
`;
}
