/**
 * Length control (`--tokenizer FILE --max-length N`): how many tokens a row takes in the trainer
 * its format is for, counted the way that trainer tokenizes it, so that a row that would be cut
 * (and lose the candidate's label, the last one) is dropped instead.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { UserError } from "../pddl/errors.js";
import { STEP_TAG } from "./formats.js";
import { STEP_SEPARATOR } from "../products/layout.js";

/** Counts tokens of a text (no special tokens). */
export interface TokenCounter {
  /** "tokenizer.json" file, or "estimate". */
  readonly source: string;
  count(text: string): number;
  /** Token ids, where a real tokenizer is loaded (null for the estimate). */
  ids(text: string): number[] | null;
}

/**
 * Bytes per token of the estimate used without `--tokenizer`: ceil(UTF-8 bytes / 2) + 1 per
 * piece. On rows of all 11 built-in domains the Llama 2, Llama 3, Qwen 3 and Gemma 3 tokenizers
 * count about 3.0 characters per token, and no row more than 83% of the estimate: rows near the
 * limit are dropped rather than cut (docs/training.md).
 */
export const ESTIMATE_BYTES_PER_TOKEN = 2;

/** Tokens added for each chat message by a chat template (role header and end of turn), for --chat rows. */
export const CHAT_MESSAGE_TOKENS = 16;

class Estimate implements TokenCounter {
  readonly source = "estimate";
  count(text: string): number {
    return Math.ceil(Buffer.byteLength(text, "utf8") / ESTIMATE_BYTES_PER_TOKEN) + 1;
  }
  ids(): null {
    return null;
  }
}

interface HfTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

class HfCounter implements TokenCounter {
  private memo = new Map<string, number>();
  constructor(
    readonly source: string,
    private tok: HfTokenizer,
  ) {}
  ids(text: string): number[] {
    return this.tok.encode(text, { add_special_tokens: false }).ids;
  }
  count(text: string): number {
    // prompts and prefix steps repeat across the rows of a state: count each once
    let n = this.memo.get(text);
    if (n === undefined) {
      n = this.ids(text).length;
      if (this.memo.size > 50_000) this.memo.clear();
      this.memo.set(text, n);
    }
    return n;
  }
}

const loaded = new Map<string, TokenCounter>();

/**
 * The token counter for a run: a Hugging Face `tokenizer.json` read locally (with the
 * `tokenizer_config.json` beside it, if any), or the estimate when `file` is null. Cached per
 * thread. Bad files are a UserError naming the flag and the file.
 */
export function tokenCounter(file: string | null): TokenCounter {
  const key = file ?? "";
  let c = loaded.get(key);
  if (c) return c;
  if (file === null) c = new Estimate();
  else {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      const why = e instanceof SyntaxError ? "not JSON" : ((e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(e));
      throw new UserError(`--tokenizer ${file}: cannot read a tokenizer.json (${why})`);
    }
    if (json === null || typeof json !== "object" || !("model" in json)) {
      throw new UserError(`--tokenizer ${file}: not a Hugging Face tokenizer.json (no "model")`);
    }
    const cfgFile = join(dirname(file), "tokenizer_config.json");
    let cfg: unknown = {};
    if (existsSync(cfgFile)) {
      try {
        cfg = JSON.parse(readFileSync(cfgFile, "utf8"));
      } catch {
        throw new UserError(`${cfgFile}: not JSON (read with --tokenizer ${file})`);
      }
    }
    // @huggingface/tokenizers: the pure-JS port of Hugging Face's tokenizers (loaded only when asked for)
    const { Tokenizer } = createRequire(import.meta.url)("@huggingface/tokenizers") as { Tokenizer: new (t: object, c: object) => HfTokenizer };
    let tok: HfTokenizer;
    try {
      tok = new Tokenizer(json, cfg as object);
      tok.encode("check", { add_special_tokens: false });
    } catch (e) {
      throw new UserError(`--tokenizer ${file}: cannot load it (${e instanceof Error ? e.message : String(e)})`);
    }
    c = new HfCounter(file, tok);
  }
  loaded.set(key, c);
  return c;
}

/**
 * Tokens of a stepwise row in TRL's PRMTrainer (`tokenize_row`): a BOS token, the prompt, and
 * every step followed by the separator, each tokenized on its own. The same count serves native
 * rows and math-shepherd rows (which TRL's conversion turns into this layout).
 */
export function stepwiseTokens(c: TokenCounter, prompt: string, steps: readonly string[]): number {
  let n = 1 + c.count(prompt);
  const sep = c.count(STEP_SEPARATOR);
  for (const s of steps) n += c.count(s) + sep;
  return n;
}

/** Tokens of an OpenRLHF PRM input (tokenized whole, without special tokens). */
export function wholeTextTokens(c: TokenCounter, input: string): number {
  return c.count(input);
}

/**
 * Tokens of the longer side of a preference row in TRL's RewardTrainer / DPOTrainer: BOS,
 * prompt + side, EOS; with `chat`, the message contents plus CHAT_MESSAGE_TOKENS per message.
 */
export function preferenceTokens(c: TokenCounter, row: { prompt: string; chosen: string; rejected: string }, chat: boolean): number {
  const side = (s: string) => (chat ? c.count(row.prompt) + c.count(s) + 2 * CHAT_MESSAGE_TOKENS : c.count(row.prompt + s));
  return 2 + Math.max(side(row.chosen), side(row.rejected));
}

/**
 * Tokens of a conversation in TRL's SFTTrainer (conversational language modelling): BOS, every
 * message's content plus CHAT_MESSAGE_TOKENS for its chat-template framing.
 */
export function feedbackTokens(c: TokenCounter, messages: readonly { content: string }[]): number {
  let n = 1;
  for (const m of messages) n += c.count(m.content) + CHAT_MESSAGE_TOKENS;
  return n;
}

/** Tokens of a prompt-completion row in TRL's SFTTrainer: BOS, prompt + completion, EOS (as messages with --chat). */
export function promptCompletionTokens(c: TokenCounter, prompt: string | readonly { content: string }[], completion: string | readonly { content: string }[]): number {
  if (typeof prompt === "string" && typeof completion === "string") return 2 + c.count(prompt + completion);
  const all = [...(typeof prompt === "string" ? [{ content: prompt }] : prompt), ...(typeof completion === "string" ? [{ content: completion }] : completion)];
  return 1 + feedbackTokens(c, all);
}

/** What keeps a real tokenizer from OpenRLHF's PRM layout (placeholder and reward tokens of one token each), or null. */
export function openRlhfTokenProblem(c: TokenCounter): string | null {
  for (const t of [STEP_TAG, "+", "-"]) {
    const ids = c.ids(t);
    if (ids !== null && ids.length !== 1) return `'${t}' is ${ids.length} tokens in ${c.source}; OpenRLHF needs one token for the placeholder and each reward token`;
  }
  // the layout puts the placeholder after a space, as the recipe's SentencePiece tokenizer reads it
  return placeholderProblem(c, `Step 1: a. ${STEP_TAG}`, 1);
}

/**
 * OpenRLHF's placeholder check, run on a real tokenizer: the number of placeholder tokens in the
 * tokenized input must equal the number of labels (OpenRLHF puts label i on the i-th one). Returns
 * null when it holds, else what is wrong.
 */
export function placeholderProblem(c: TokenCounter, input: string, labels: number): string | null {
  const tag = c.ids(STEP_TAG);
  if (tag === null) return null;
  if (tag.length !== 1) return `the placeholder '${STEP_TAG}' is ${tag.length} tokens in ${c.source}; OpenRLHF needs one`;
  const ids = c.ids(input)!;
  const found = ids.filter((id) => id === tag[0]).length;
  if (found !== labels) {
    return `OpenRLHF would find ${found} placeholder tokens '${STEP_TAG}' for ${labels} steps with ${c.source} (it tokenizes ' ${STEP_TAG}' differently from '${STEP_TAG}', unlike the SentencePiece tokenizer of OpenRLHF's recipe)`;
  }
  return null;
}
