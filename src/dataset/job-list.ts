import type { ProblemSource } from "./problems.js";
import type { ProblemJob } from "./records.js";
import { SPLITS, type Split } from "./row.js";

/** What jobs of the same domain share: kept once, not once per problem. */
interface DomainEntry {
  domainName: string;
  domainFile: string;
  domainText: string;
  builtinTemplates: string | null;
  templatesFile: string | null;
  templatesText: string | null;
}

const HAS_SHA = 1;
const GENERATED = 2;
/** The file's name is `<problemId>.pddl`: the name is not stored. */
const NAME_IS_ID = 4;

/**
 * A rank's jobs in columns, made into `ProblemJob` objects one at a time as they are run. As
 * objects, each job took some 310 bytes of the main thread's heap (its own path string, a hex
 * digest, a `generated` object and the object itself): 73 MB for the 235k problems of 16x the
 * paper's corpus, held for the whole run. Here a job takes about 80: the domain fields by
 * reference, the folder of its file by reference, the digest as 32 bytes.
 */
export class JobList {
  private readonly domains: DomainEntry[] = [];
  private readonly domainIndex = new Map<string, number>();
  private readonly dirs: string[] = [];
  private readonly dirIndex = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly otherNames = new Map<number, string>();
  private readonly texts = new Map<number, string>();
  private domainOf = new Uint32Array(64);
  private dirOf = new Uint32Array(64);
  private position = new Uint32Array(64);
  private splits = new Uint8Array(64);
  private flags = new Uint8Array(64);
  private sha = new Uint8Array(64 * 32);
  /** seed, index, attempt of `--count` problems (allocated with the first one). */
  private gen: Float64Array | null = null;
  private n = 0;

  get length(): number {
    return this.n;
  }

  /** Append `source` as the job at run position `index` (its text, if it kept one, too). */
  push(source: ProblemSource, index: number, split: Split): void {
    // Buffer.from(hex) would drop what is not hex without a word; checked before anything is stored
    if (source.problemSha256 !== undefined && !/^[0-9a-f]{64}$/.test(source.problemSha256)) {
      throw new Error(`${source.problemFile}: not a sha256 digest: ${source.problemSha256}`);
    }
    if (this.n === this.domainOf.length) this.grow();
    const i = this.n++;
    this.domainOf[i] = this.domainRef(source);
    const file = source.problemFile;
    const cut = file.lastIndexOf("/") + 1;
    const dir = file.slice(0, cut);
    let d = this.dirIndex.get(dir);
    if (d === undefined) {
      d = this.dirs.length;
      this.dirs.push(dir);
      this.dirIndex.set(dir, d);
    }
    this.dirOf[i] = d;
    this.ids.push(source.problemId);
    let f = 0;
    const name = file.slice(cut);
    if (name === `${source.problemId}.pddl`) f |= NAME_IS_ID;
    else this.otherNames.set(i, name);
    if (source.problemSha256 !== undefined) {
      f |= HAS_SHA;
      this.sha.set(Buffer.from(source.problemSha256, "hex"), i * 32);
    }
    if (source.generated !== undefined) {
      f |= GENERATED;
      if (this.gen === null) this.gen = new Float64Array(this.domainOf.length * 3);
      this.gen[i * 3] = source.generated.seed;
      this.gen[i * 3 + 1] = source.generated.index;
      this.gen[i * 3 + 2] = source.generated.attempt;
    }
    this.flags[i] = f;
    if (source.problemText !== null) this.texts.set(i, source.problemText);
    this.position[i] = index;
    this.splits[i] = SPLITS.indexOf(split);
  }

  domainName(i: number): string {
    return this.domains[this.domainOf[this.check(i)]!]!.domainName;
  }

  domainText(i: number): string {
    return this.domains[this.domainOf[this.check(i)]!]!.domainText;
  }

  problemId(i: number): string {
    return this.ids[this.check(i)]!;
  }

  split(i: number): Split {
    return SPLITS[this.splits[this.check(i)]!]!;
  }

  /** The distinct domain names of the jobs. */
  domainNames(): Set<string> {
    const names = new Set<string>();
    for (let i = 0; i < this.n; i++) names.add(this.domains[this.domainOf[i]!]!.domainName);
    return names;
  }

  /** Job `i` as the object a worker takes (a new object on each call). */
  at(i: number): ProblemJob {
    this.check(i);
    const d = this.domains[this.domainOf[i]!]!;
    const f = this.flags[i]!;
    const id = this.ids[i]!;
    const job: ProblemJob = {
      domainName: d.domainName,
      domainFile: d.domainFile,
      domainText: d.domainText,
      problemId: id,
      problemFile: this.dirs[this.dirOf[i]!]! + (f & NAME_IS_ID ? `${id}.pddl` : this.otherNames.get(i)!),
      problemText: this.texts.get(i) ?? null,
      builtinTemplates: d.builtinTemplates,
      templatesFile: d.templatesFile,
      ...(d.templatesText !== null ? { templatesText: d.templatesText } : {}),
      index: this.position[i]!,
      split: SPLITS[this.splits[i]!]!,
    };
    if (f & HAS_SHA) job.problemSha256 = Buffer.from(this.sha.buffer, this.sha.byteOffset + i * 32, 32).toString("hex");
    if (f & GENERATED) {
      const g = this.gen!;
      job.generated = { seed: g[i * 3]!, index: g[i * 3 + 1]!, attempt: g[i * 3 + 2]! };
    }
    return job;
  }

  *[Symbol.iterator](): IterableIterator<ProblemJob> {
    for (let i = 0; i < this.n; i++) yield this.at(i);
  }

  private domainRef(s: ProblemSource): number {
    const key = `${s.domainName}\0${s.domainFile}\0${s.builtinTemplates ?? ""}\0${s.templatesFile ?? ""}`;
    const k = this.domainIndex.get(key);
    // the same file read twice could differ (edited between reads): compare the text itself
    if (k !== undefined && this.domains[k]!.domainText === s.domainText) return k;
    const { domainName, domainFile, domainText, builtinTemplates, templatesFile } = s;
    this.domains.push({ domainName, domainFile, domainText, builtinTemplates, templatesFile, templatesText: s.templatesText ?? null });
    this.domainIndex.set(key, this.domains.length - 1);
    return this.domains.length - 1;
  }

  private check(i: number): number {
    if (!(i >= 0 && i < this.n)) throw new RangeError(`job ${i} of ${this.n}`);
    return i;
  }

  private grow(): void {
    const size = this.domainOf.length * 2;
    const bigger = <T extends Uint32Array | Uint8Array | Float64Array>(a: T, per = 1): T => {
      const b = new (a.constructor as new (n: number) => T)(size * per);
      b.set(a);
      return b;
    };
    this.domainOf = bigger(this.domainOf);
    this.dirOf = bigger(this.dirOf);
    this.position = bigger(this.position);
    this.splits = bigger(this.splits);
    this.flags = bigger(this.flags);
    this.sha = bigger(this.sha, 32);
    if (this.gen !== null) this.gen = bigger(this.gen, 3);
  }
}
