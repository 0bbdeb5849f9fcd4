import { z } from "zod";
import { formatFloat } from "../products/layout.js";

/** The five categories, in reward order. */
export const CATEGORIES = ["non-executable", "dead-end", "backtracking", "suboptimal", "optimal"] as const;

export const SPLITS = ["train", "validation", "test"] as const;
export type Split = (typeof SPLITS)[number];

/** `meta` of a native row (DESIGN.md §9): enough to replay and re-check the row. */
export const RowMetaSchema = z
  .object({
    state_index: z.number().int().nonnegative(),
    prefix: z.array(z.string()),
    action: z.string().regex(/^\(.*\)$/),
    h_before: z.number().nullable(),
    h_after: z.number().nullable(),
    cost: z.number().nullable(),
    extra_cost: z.number().nullable(),
    failed_preconditions: z.array(z.string()),
    revisits: z.number().int().nonnegative(),
    backtrack_to: z.number().int().nonnegative().nullable(),
    dead_end_proof: z.string().nullable(),
    plan_length: z.number().int().nonnegative(),
    seed: z.number().int(),
  })
  .strict();

/** The native row of DESIGN.md §9, validated in tests and by `pddl2prm stats --check`. */
export const NativeRowSchema = z
  .object({
    id: z.string().min(1),
    domain: z.string().min(1),
    problem: z.string().min(1),
    split: z.enum(SPLITS),
    prompt: z.string().min(1),
    completions: z.array(z.string().min(1)).min(1),
    labels: z.array(z.number().min(0).max(1)).min(1),
    category: z.enum(CATEGORIES),
    critique: z.string().min(1),
    meta: RowMetaSchema,
  })
  .strict()
  .refine((r) => r.labels.length === r.completions.length, { message: "labels and completions differ in length" })
  .refine((r) => r.meta.prefix.length === r.completions.length - 1, { message: "meta.prefix must have one entry per prefix step" });

export type NativeRow = z.infer<typeof NativeRowSchema>;
export type RowMeta = z.infer<typeof RowMetaSchema>;

/**
 * JSON text of `obj` in which the listed top-level keys (float arrays or numbers) print with
 * `formatFloat`. Key order is the object's own order, so output is byte-stable. One
 * JSON.stringify, then the float fields are patched: a quoted key cannot occur unescaped
 * inside a JSON string, so the first match is the field itself.
 */
export function stringifyWithFloats(obj: Record<string, unknown>, floatKeys: readonly string[]): string {
  let s = JSON.stringify(obj);
  for (const k of floatKeys) {
    const v = obj[k];
    const key = `${JSON.stringify(k)}:`;
    const i = s.indexOf(key);
    if (i < 0) continue;
    const from = i + key.length;
    if (Array.isArray(v)) {
      const to = s.indexOf("]", from) + 1;
      s = `${s.slice(0, from)}[${(v as number[]).map(formatFloat).join(",")}]${s.slice(to)}`;
    } else if (typeof v === "number") {
      let to = from;
      while (to < s.length && s[to] !== "," && s[to] !== "}") to++;
      s = `${s.slice(0, from)}${formatFloat(v)}${s.slice(to)}`;
    }
  }
  return s;
}
