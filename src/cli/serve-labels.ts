/**
 * How `serve`'s OpenRLHF endpoint (POST /get_reward) turns its inputs into reward requests
 * (docs/rl.md, "The reward server"). OpenRLHF sends `{query, prompts, labels}`: `query[i]` is the
 * prompt and the response decoded as one text, `prompts[i]` the prompt, `labels[i]` the row's
 * `--label_key` column. The completion is the query after its prompt; the problem comes from the
 * label:
 * - a verl `reward_model` object or its `ground_truth` (JSON text or object) with `domain` and
 *   `problem` (PDDL text, a built-in name and a shipped problem, or file paths);
 * - `pddl_sha256` (64 hex digits) or a row `id` (`blocksworld/p0007`), looked up in the rl
 *   dataset folder given to `serve --data`; without `--data`, an id `DOMAIN/PROBLEM` names a
 *   built-in domain and its shipped problem;
 * - an `extra_info` object (its `pddl_sha256` or `id`).
 */
import { BUILTIN_DOMAINS } from "../generators/index.js";
import { UserError } from "../pddl/index.js";
import { openDataset, readRows } from "../audit/read.js";

/** A problem as a reward request names it. */
export interface ProblemRef {
  domain: string;
  problem: string;
}

/** The problems of an rl dataset folder by `pddl_sha256` and by row `id`. */
export class ProblemIndex {
  private readonly byHash = new Map<string, ProblemRef>();
  private readonly byId = new Map<string, ProblemRef>();

  get size(): number {
    return this.byHash.size;
  }

  /** Read the rows of `dir` (a folder of `generate --format rl`; JSONL, gzip or Parquet shards). */
  static async load(dir: string): Promise<ProblemIndex> {
    const info = openDataset(dir);
    if (info.format !== "rl") throw new UserError(`${dir}: --data needs a folder of 'generate --format rl' (this one is --format ${info.format})`);
    const index = new ProblemIndex();
    for await (const { obj } of readRows(info)) {
      const d = obj.domain_pddl;
      const p = obj.problem_pddl;
      if (typeof d !== "string" || typeof p !== "string") continue;
      // one copy of each text: rows of one domain share their domain_pddl
      const ref = { domain: d, problem: p };
      if (typeof obj.pddl_sha256 === "string") index.byHash.set(obj.pddl_sha256, ref);
      if (typeof obj.id === "string") index.byId.set(obj.id, ref);
    }
    return index;
  }

  hash(h: string): ProblemRef | undefined {
    return this.byHash.get(h.toLowerCase());
  }

  id(id: string): ProblemRef | undefined {
    return this.byId.get(id);
  }
}

const HASH = /^[0-9a-fA-F]{64}$/;

/** The problem a label names; throws UserError with a one-line reason. */
export function resolveLabel(label: unknown, index: ProblemIndex | null, depth = 0): ProblemRef {
  if (depth > 3) throw new UserError("the label nests too deep");
  if (typeof label === "string") {
    const s = label.trim();
    if (s.startsWith("{")) {
      let obj: unknown;
      try {
        obj = JSON.parse(s);
      } catch {
        throw new UserError("the label starts with '{' but is not JSON");
      }
      return resolveLabel(obj, index, depth + 1);
    }
    if (HASH.test(s)) {
      const ref = index?.hash(s);
      if (ref === undefined) throw new UserError(index === null ? `a pddl_sha256 label needs the rl dataset folder: start the server with --data DIR` : `no problem of --data has pddl_sha256 ${s}`);
      return ref;
    }
    const ref = index?.id(s);
    if (ref !== undefined) return ref;
    const m = /^([\w-]+)\/([\w.-]+)$/.exec(s);
    if (m !== null && BUILTIN_DOMAINS.some((b) => b.name === m[1]!.toLowerCase())) return { domain: m[1]!, problem: m[2]! };
    throw new UserError(
      index === null
        ? `the label '${s.slice(0, 80)}' is not a problem reference (a ground_truth JSON, BUILTIN/PROBLEM, or a pddl_sha256 or row id with --data DIR)`
        : `no row of --data has the id '${s.slice(0, 80)}'`,
    );
  }
  if (label !== null && typeof label === "object" && !Array.isArray(label)) {
    const o = label as Record<string, unknown>;
    if ("ground_truth" in o) return resolveLabel(o.ground_truth, index, depth + 1);
    const str = (v: unknown): v is string => typeof v === "string" && v.length > 0;
    // a row (its PDDL texts), a ground_truth (texts under domain/problem), then references
    if (str(o.domain_pddl) && str(o.problem_pddl)) return { domain: o.domain_pddl, problem: o.problem_pddl };
    if (str(o.domain) && str(o.problem) && o.domain.includes("(")) return { domain: o.domain, problem: o.problem };
    if (str(o.pddl_sha256)) return resolveLabel(o.pddl_sha256, index, depth + 1);
    if (str(o.id)) return resolveLabel(o.id, index, depth + 1);
    // names as `judge --jsonl` takes them (a built-in domain and a shipped problem, file paths)
    if (str(o.domain) && str(o.problem)) return { domain: o.domain, problem: o.problem };
    throw new UserError("the label object names no problem (domain and problem, ground_truth, pddl_sha256 or id)");
  }
  throw new UserError(`a label must be a string or an object, got ${label === null ? "null" : Array.isArray(label) ? "an array" : typeof label}`);
}

/** Chat-template openings of an assistant turn (the response follows the last one). */
const ASSISTANT_MARKERS = ["<|im_start|>assistant", "<|start_header_id|>assistant<|end_header_id|>", "<start_of_turn>model", "<|assistant|>", "[/INST]", "<｜Assistant｜>"];

/**
 * The response in an OpenRLHF query: the text after `prompt` when the query holds it, else after
 * the last assistant marker of a common chat template, else the whole query (the extractor reads
 * the plan from the end of an answer; the prompt's examples come first).
 */
export function responseOf(query: string, prompt: unknown): string {
  if (typeof prompt === "string" && prompt.length > 0) {
    if (query.startsWith(prompt)) return query.slice(prompt.length);
    const i = query.indexOf(prompt);
    if (i >= 0) return query.slice(i + prompt.length);
  }
  let at = -1;
  let len = 0;
  for (const m of ASSISTANT_MARKERS) {
    const i = query.lastIndexOf(m);
    if (i > at) {
      at = i;
      len = m.length;
    }
  }
  return at >= 0 ? query.slice(at + len) : query;
}
