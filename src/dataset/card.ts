import type { Manifest } from "./manifest.js";
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

| category | rows |
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
