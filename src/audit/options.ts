/**
 * "Odd one out" probes on the options of reasoning questions (`--format acp`, issue 52): rules
 * that read only the options' form, never a word of their meaning nor the state, and pick the
 * option that stands out among the four: the one of the rarest predicate (or action schema),
 * the rarest argument count, the shortest, the longest. On a choice the rule's pick is scored
 * against chance (1 in 4); on a free list of options (one or two right) the same pick is scored
 * against the share of right options. Ties share the pick: four options of one form score
 * chance exactly. Before issue 52 the landmark among facts of other predicates was picked by
 * its predicate alone 54% of the time.
 */
import { clusteredMean } from "./measures.js";
import type { ShardRow } from "./read.js";

/** One probe on the questions of one kind and form. */
export interface OptionProbeResult {
  /** The rule: "rarest predicate", "argument count", "shortest", "longest". */
  probe: string;
  /** "kind/form", e.g. "landmarks/choice". */
  group: string;
  /** Questions read. */
  n: number;
  /** The share of right options (a choice: 0.25). */
  chance: number;
  /** The probability that the rule's pick (a tie: one of the tied options at random) is right. */
  value: number;
  /** value - chance, and its standard error over problems (a problem's questions share its facts). */
  gain: number;
  se: number;
}

/** An option's form: its predicate or schema (facts and actions of `meta.items`), argument count, characters. */
interface OptionForm {
  head: string;
  args: number;
  chars: number;
}

type Rule = (xs: OptionForm[]) => number[];

/** The options that are extreme in `key` (`rarest`: whose value the fewest options share). */
const oddBy = (key: (x: OptionForm) => number | string, how: "rarest" | "min" | "max"): Rule => (xs) => {
  const vs = xs.map(key);
  if (how === "rarest") {
    const count = new Map<number | string, number>();
    for (const v of vs) count.set(v, (count.get(v) ?? 0) + 1);
    const m = Math.min(...count.values());
    return vs.flatMap((v, i) => (count.get(v) === m ? [i] : []));
  }
  const nums = vs as number[];
  const m = how === "min" ? Math.min(...nums) : Math.max(...nums);
  return nums.flatMap((v, i) => (v === m ? [i] : []));
};

/** The rules, in the order they are reported. */
export const OPTION_RULES: [string, Rule][] = [
  ["rarest predicate", oddBy((x) => x.head, "rarest")],
  ["argument count", oddBy((x) => x.args, "rarest")],
  ["shortest", oddBy((x) => x.chars, "min")],
  ["longest", oddBy((x) => x.chars, "max")],
];

const LETTERS = "ABCD";

/**
 * The form of an item of `meta.items`: facts and actions "(p a b)" (a pair "(p a) & (q b)": its
 * predicates joined), step numbers "3+4" (their count).
 */
export function itemForm(item: string, text: string): OptionForm {
  const atoms = [...item.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]!.trim().split(/\s+/));
  if (atoms.length === 0) return { head: `steps${item.split("+").length}`, args: item.split("+").length, chars: text.length };
  return { head: atoms.map((a) => a[0]).join("&"), args: atoms.reduce((s, a) => s + a.length - 1, 0), chars: text.length };
}

/** The options of an acp row with their forms and which are right, or null (no options: yes/no, a free answer that is no list). */
export function optionsOf(obj: Record<string, unknown>): { forms: OptionForm[]; right: boolean[] } | null {
  const meta = (obj["meta"] ?? {}) as Record<string, unknown>;
  const items = Array.isArray(meta["items"]) ? meta["items"].map(String) : [];
  let texts: string[];
  let right: boolean[];
  if (obj["form"] === "choice") {
    const choices = obj["choices"];
    if (!Array.isArray(choices)) return null;
    texts = choices.map(String);
    const at = LETTERS.indexOf(String(obj["answer"]));
    right = texts.map((_, i) => i === at);
  } else if (obj["form"] === "free") {
    // a free list: the question ends with its options "A. ..." .. "D. ...", the gold a set of letters
    const set = ((meta["gold"] ?? {}) as Record<string, unknown>)["set"];
    if (!Array.isArray(set) || set.length === 0 || !set.every((x) => typeof x === "string" && x.length === 1 && LETTERS.includes(x))) return null;
    const lines = String(obj["question"] ?? "").split("\n");
    texts = [];
    for (let i = 0; i < LETTERS.length; i++) {
      const line = lines[lines.length - LETTERS.length + i] ?? "";
      if (!line.startsWith(`${LETTERS[i]}. `)) return null;
      texts.push(line.slice(3));
    }
    right = texts.map((_, i) => set.includes(LETTERS[i]));
  } else return null;
  if (texts.length < 2 || items.length !== texts.length) return null;
  return { forms: texts.map((t, i) => itemForm(items[i]!, t)), right };
}

/** The odd-one-out probes of an audit, fed row by row. */
export class OptionProbes {
  /** Per "kind/form": per rule, each question's score (pick right minus chance); the problems; chances. */
  private readonly groups = new Map<string, { diffs: number[][]; chance: number[]; problems: string[] }>();

  /** Read one acp row (other rows and forms are skipped). */
  add(row: ShardRow): void {
    const o = row.obj;
    const opts = optionsOf(o);
    if (opts === null) return;
    const id = String(o["id"] ?? "");
    const group = `${String(o["kind"])}/${String(o["form"])}`;
    let g = this.groups.get(group);
    if (g === undefined) this.groups.set(group, (g = { diffs: OPTION_RULES.map(() => []), chance: [], problems: [] }));
    const chance = opts.right.filter(Boolean).length / opts.right.length;
    OPTION_RULES.forEach(([, rule], k) => {
      const picked = rule(opts.forms);
      g!.diffs[k]!.push(picked.filter((i) => opts.right[i]).length / picked.length - chance);
    });
    g.chance.push(chance);
    g.problems.push(id.split("/").slice(0, 2).join("/"));
  }

  /** Every rule on every kind and form read, groups sorted. */
  results(): OptionProbeResult[] {
    const out: OptionProbeResult[] = [];
    for (const group of [...this.groups.keys()].sort()) {
      const g = this.groups.get(group)!;
      const chance = g.chance.reduce((a, x) => a + x, 0) / g.chance.length;
      OPTION_RULES.forEach(([probe], k) => {
        const d = clusteredMean(g.diffs[k]!, g.problems);
        out.push({ probe, group, n: d.n, chance, value: chance + d.value, gain: d.value, se: d.se });
      });
    }
    return out;
  }
}
