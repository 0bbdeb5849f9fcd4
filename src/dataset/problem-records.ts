import { emptyCounts, type ProblemRecord, type StatesCut } from "./records.js";
import { CATEGORIES, type Split } from "./row.js";

/** What a record takes from its problem's result. */
export interface RecordSource {
  lineCount: number;
  planLength: number;
  skipped: string | null;
  cut?: StatesCut;
  dropped: number;
  counts: ProblemRecord["counts"];
  text?: ProblemRecord["text"];
}

/** The jobs a list's records belong to (a run's `JobList`). */
export interface RecordJobs {
  readonly length: number;
  domainName(i: number): string;
  problemId(i: number): string;
  split(i: number): Split;
}

// rows, plan_length, dropped, one count per category, then the prompt's summary (4 numbers)
const FIELDS = 3 + CATEGORIES.length + 4;
const TEXT = 3 + CATEGORIES.length;

/**
 * A rank's per-problem records, kept packed while the run goes (64 bytes a problem instead of
 * some 200 as objects: the main thread's memory should not grow with the run), in the order of
 * the jobs they belong to; `toArray` makes the records of the completion marker.
 */
export class ProblemRecordList {
  private nums = new Float64Array(FIELDS * 256);
  private readonly skipped = new Map<number, string>();
  private readonly cut = new Map<number, StatesCut>();
  private n = 0;

  /** `jobs`: the problems, in the order their records will be added. */
  constructor(private readonly jobs: RecordJobs) {}

  get length(): number {
    return this.n;
  }

  /** The record of the next job. */
  push(r: RecordSource): void {
    if (this.n >= this.jobs.length) throw new Error("more records than jobs");
    if ((this.n + 1) * FIELDS > this.nums.length) {
      const grown = new Float64Array(this.nums.length * 2);
      grown.set(this.nums);
      this.nums = grown;
    }
    const o = this.n * FIELDS;
    this.nums[o] = r.lineCount;
    this.nums[o + 1] = r.planLength;
    this.nums[o + 2] = r.dropped;
    for (let k = 0; k < CATEGORIES.length; k++) this.nums[o + 3 + k] = r.counts[CATEGORIES[k]!];
    const t = r.text;
    this.nums[o + TEXT] = t?.rules_omitted ?? 0;
    this.nums[o + TEXT + 1] = t?.fixed_omitted ?? 0;
    this.nums[o + TEXT + 2] = t?.cost_omitted ?? 0;
    this.nums[o + TEXT + 3] = t?.arithmetic ?? 0;
    if (r.skipped !== null) this.skipped.set(this.n, r.skipped);
    if (r.cut !== undefined) this.cut.set(this.n, r.cut);
    this.n++;
  }

  /** The records so far, as the completion marker holds them. */
  toArray(): ProblemRecord[] {
    const out: ProblemRecord[] = [];
    for (let i = 0; i < this.n; i++) {
      const o = i * FIELDS;
      const counts = emptyCounts();
      for (let k = 0; k < CATEGORIES.length; k++) counts[CATEGORIES[k]!] = this.nums[o + 3 + k]!;
      const dropped = this.nums[o + 2]!;
      const text = { rules_omitted: this.nums[o + TEXT]!, fixed_omitted: this.nums[o + TEXT + 1]!, cost_omitted: this.nums[o + TEXT + 2]!, arithmetic: this.nums[o + TEXT + 3]! };
      out.push({
        domain: this.jobs.domainName(i),
        problem: this.jobs.problemId(i),
        split: this.jobs.split(i),
        rows: this.nums[o]!,
        plan_length: this.nums[o + 1]!,
        skipped: this.skipped.get(i) ?? null,
        counts,
        ...(dropped > 0 ? { dropped } : {}),
        ...(text.rules_omitted + text.fixed_omitted + text.cost_omitted + text.arithmetic > 0 ? { text } : {}),
        ...(this.cut.has(i) ? { cut: this.cut.get(i)! } : {}),
      });
    }
    return out;
  }
}
