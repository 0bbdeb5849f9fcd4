/**
 * The dataset's plots (`stats --plot`, embedded in the dataset card): the category mix per
 * domain and the distribution of optimal plan lengths, as SVG. Drawn with Vega-Lite, which
 * renders SVG in Node without a browser or canvas; loaded only when plots are drawn.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeDatasetFile } from "./disk.js";
import type { ProblemRecord } from "./records.js";
import { CATEGORIES } from "./row.js";

/** The plot files, relative to the dataset folder (the card links them). */
export const PLOT_FILES = {
  categories: "plots/categories.svg",
  planLengths: "plots/plan-lengths.svg",
} as const;

/** Category colours, from wrong (red) to optimal (green). */
const COLOURS = ["#d7301f", "#fc8d59", "#fdcc8a", "#a1d99b", "#31a354"];

/** One bar segment per (domain, category) with candidates: the rows of the category chart. */
export function categoryMix(problems: readonly ProblemRecord[]): { domain: string; category: string; rows: number; share: number }[] {
  const by = new Map<string, Record<string, number>>();
  for (const p of problems) {
    const c = by.get(p.domain) ?? Object.fromEntries(CATEGORIES.map((k) => [k, 0]));
    for (const k of CATEGORIES) c[k]! += p.counts[k];
    by.set(p.domain, c);
  }
  const out: { domain: string; category: string; rows: number; share: number }[] = [];
  for (const d of [...by.keys()].sort()) {
    const c = by.get(d)!;
    const total = CATEGORIES.reduce((a, k) => a + c[k]!, 0);
    for (const k of CATEGORIES) if (c[k]! > 0) out.push({ domain: d, category: k, rows: c[k]!, share: Math.round((c[k]! / total) * 1e4) / 1e4 });
  }
  return out;
}

/** Optimal plan length of every labelled problem. */
export function planLengths(problems: readonly ProblemRecord[]): { domain: string; plan_length: number }[] {
  return problems
    .filter((p) => p.skipped === null)
    .map((p) => ({ domain: p.domain, plan_length: p.plan_length }))
    .sort((a, b) => (a.domain === b.domain ? a.plan_length - b.plan_length : a.domain < b.domain ? -1 : 1));
}

async function render(spec: Record<string, unknown>): Promise<string> {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const view = new vega.View(vega.parse(vl.compile(spec as unknown as Parameters<typeof vl.compile>[0]).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/** The frame both charts share: title, a row per domain, the data. */
function frame(text: string, subtitle: string, values: { domain: string }[]): Record<string, unknown> {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    background: "white",
    config: { font: "sans-serif", view: { stroke: null } },
    title: { text, subtitle },
    width: 480,
    height: Math.max(40, 22 * new Set(values.map((v) => v.domain)).size),
    data: { values },
  };
}

/** Stacked bars: each domain's labelled candidates split by category (shares, counts in the tooltip text). */
export function categoriesSvg(problems: readonly ProblemRecord[]): Promise<string> {
  return render({
    ...frame("Category mix per domain", "share of labelled candidate steps", categoryMix(problems)),
    mark: { type: "bar" },
    encoding: {
      y: { field: "domain", type: "nominal", title: null, sort: "ascending" },
      x: { field: "rows", type: "quantitative", stack: "normalize", title: "share", axis: { format: "%" } },
      color: { field: "category", type: "nominal", title: "category", scale: { domain: [...CATEGORIES], range: COLOURS }, legend: { orient: "bottom", columns: 5 } },
      order: { field: "order", type: "quantitative" },
      tooltip: [{ field: "domain" }, { field: "category" }, { field: "rows", type: "quantitative" }, { field: "share", type: "quantitative", format: ".1%" }],
    },
    transform: [{ calculate: `indexof(${JSON.stringify(CATEGORIES)}, datum.category)`, as: "order" }],
  });
}

/** Per domain: how many problems have each optimal plan length (circle area), and the mean (a tick). */
export function planLengthsSvg(problems: readonly ProblemRecord[]): Promise<string> {
  const y = { field: "domain", type: "nominal", title: null, sort: "ascending" };
  return render({
    ...frame("Optimal plan length per domain", "circle area: number of problems; tick: mean", planLengths(problems)),
    layer: [
      {
        transform: [{ aggregate: [{ op: "count", as: "problems" }], groupby: ["domain", "plan_length"] }],
        mark: { type: "circle", color: "#3182bd", opacity: 0.75 },
        encoding: {
          y,
          x: { field: "plan_length", type: "quantitative", title: "optimal plan length (steps)" },
          size: { field: "problems", type: "quantitative", title: "problems", legend: { orient: "bottom", format: "d", tickMinStep: 1 } },
          tooltip: [{ field: "domain" }, { field: "plan_length" }, { field: "problems" }],
        },
      },
      {
        mark: { type: "tick", color: "#222", thickness: 2 },
        encoding: { y, x: { aggregate: "mean", field: "plan_length", type: "quantitative" } },
      },
    ],
  });
}

/** Both plots' SVG texts by their paths relative to the dataset folder. */
export async function plotTexts(problems: readonly ProblemRecord[]): Promise<Map<string, string>> {
  const [categories, lengths] = await Promise.all([categoriesSvg(problems), planLengthsSvg(problems)]);
  return new Map([
    [PLOT_FILES.categories, categories + "\n"],
    [PLOT_FILES.planLengths, lengths + "\n"],
  ]);
}

/** Write both plots into `out/plots/` (atomically); returns their paths relative to `out`. */
export async function writePlots(out: string, problems: readonly ProblemRecord[]): Promise<string[]> {
  mkdirSync(join(out, "plots"), { recursive: true });
  const files: [string, Promise<string>][] = [
    [PLOT_FILES.categories, categoriesSvg(problems)],
    [PLOT_FILES.planLengths, planLengthsSvg(problems)],
  ];
  for (const [rel, svg] of files) {
    writeDatasetFile(join(out, rel), (await svg) + "\n");
  }
  return files.map(([rel]) => rel);
}
