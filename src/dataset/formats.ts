import type { NativeRow } from "./row.js";
import { stringifyWithFloats } from "./row.js";

/** Output formats of `generate --format` (DESIGN.md §9). */
export const FORMATS = ["native", "trl", "openrlhf", "math-shepherd", "pairs", "trajectories", "processbench"] as const;
export type Format = (typeof FORMATS)[number];

/** The step marker of Math-Shepherd and OpenRLHF's PRM recipes. */
export const STEP_TAG = "ки";

export interface FormatOptions {
  /** A step whose reward is >= threshold counts as good where a format needs booleans. */
  threshold: number;
}

/** True when `name` is a known format. */
export function isFormat(name: string): name is Format {
  return (FORMATS as readonly string[]).includes(name);
}

function taggedInput(row: NativeRow, marks: string[]): string {
  const steps = row.completions.map((c, i) => `${c} ${marks[i]}`);
  return `${row.prompt}\n${steps.join("\n")}`;
}

/** One JSON line of `row` in `format`. Byte-stable: key order is fixed. */
export function formatRow(row: NativeRow, format: Format, opts: FormatOptions): string {
  switch (format) {
    case "native":
      return stringifyWithFloats(
        {
          id: row.id,
          domain: row.domain,
          problem: row.problem,
          split: row.split,
          prompt: row.prompt,
          completions: row.completions,
          labels: row.labels,
          category: row.category,
          critique: row.critique,
          meta: row.meta,
        },
        ["labels"],
      );
    case "trl":
      // TRL's stepwise-supervision layout: boolean labels, graded rewards kept alongside.
      return stringifyWithFloats(
        {
          id: row.id,
          prompt: row.prompt,
          completions: row.completions,
          labels: row.labels.map((l) => l >= opts.threshold),
          rewards: row.labels,
          category: row.category,
        },
        ["rewards"],
      );
    case "openrlhf":
      return stringifyWithFloats(
        {
          id: row.id,
          input: taggedInput(row, row.labels.map(() => STEP_TAG)),
          label: row.labels,
          category: row.category,
        },
        ["label"],
      );
    case "math-shepherd":
      return JSON.stringify({
        id: row.id,
        input: taggedInput(row, row.labels.map(() => STEP_TAG)),
        label: taggedInput(row, row.labels.map((l) => (l >= opts.threshold ? "+" : "-"))),
        category: row.category,
      });
    default:
      // pairs, trajectories, processbench: written per problem by src/dataset/pairs.ts.
      throw new Error(`internal: format ${format} is not written row by row`);
  }
}
