/**
 * The few lines of each consumer that touch pddl2prm's rows, re-implemented from their sources
 * (named on each function) so that tests can run every format through them. Python semantics
 * that matter (int() on a label, str.endswith, `+` on str/list, zip(strict=True), tensor dtypes)
 * are reproduced, including the errors they raise.
 */
import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";

export const ROOT = resolve(__dirname, "..");
export const TOKENIZER = join(ROOT, "tests", "fixtures", "tokenizer", "tokenizer.json");

const tok = new Tokenizer(
  JSON.parse(readFileSync(TOKENIZER, "utf8")) as object,
  JSON.parse(readFileSync(join(ROOT, "tests", "fixtures", "tokenizer", "tokenizer_config.json"), "utf8")) as object,
);
/** tokenizer(text, add_special_tokens=False)["input_ids"] with the fixture tokenizer. */
export const enc = (text: string): number[] => tok.encode(text, { add_special_tokens: false }).ids;
export const BOS_ID = tok.token_to_id("<s>")!;
export const EOS = "</s>";

/** A Python exception raised by a replayed consumer. */
export class PyError extends Error {}

const pyType = (x: unknown): string =>
  x === null ? "NoneType" : Array.isArray(x) ? "list" : typeof x === "string" ? "str" : typeof x === "boolean" ? "bool" : typeof x === "number" ? "float" : "dict";

/** Python's int() on a JSON value: True -> 1, 0.75 -> 0, a str or list raises. */
export function pyInt(x: unknown): number {
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number") return Math.trunc(x);
  throw new PyError(`TypeError: int() argument must be a string or a real number, not '${pyType(x)}'`);
}

function pyEndswith(x: unknown, suffix: string): boolean {
  if (typeof x !== "string") throw new PyError(`AttributeError: '${pyType(x)}' object has no attribute 'endswith'`);
  return x.endsWith(suffix);
}

/** Python `a + b` for the values a row holds: str + str, list + list, else TypeError. */
function pyAdd(a: unknown, b: unknown): unknown {
  if (typeof a === "string" && typeof b === "string") return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  throw new PyError(`TypeError: can only concatenate ${pyType(a)} (not "${pyType(b)}") to ${pyType(a)}`);
}

// --- TRL (huggingface/trl 1.9) -------------------------------------------------------------

/** trl/experimental/prm/prm_trainer.py `PRMTrainer.tokenize_row` (train_on_last_step_only=False; a BOS token exists). */
export function trlPrmTokenizeRow(f: Record<string, unknown>, stepSeparator = "\n", maxLength: number | null = 1024): { input_ids: number[]; labels: number[] } {
  let promptIds = enc(f["prompt"] as string);
  let completionsIds = (f["completions"] as string[]).map(enc);
  const labels = (f["labels"] as unknown[]).map(pyInt);
  const separatorIds = enc(stepSeparator);
  completionsIds = completionsIds.map((c) => [...c, ...separatorIds]);
  if (completionsIds.length !== labels.length) throw new PyError("ValueError: zip() arguments have different lengths");
  const stepLabels = completionsIds.map((c, i) => [...new Array<number>(c.length - 1).fill(-100), labels[i]!]);
  promptIds = [BOS_ID, ...promptIds];
  let inputIds = [...promptIds, ...completionsIds.flat()];
  let all = [...new Array<number>(promptIds.length).fill(-100), ...stepLabels.flat()];
  if (maxLength !== null) {
    inputIds = inputIds.slice(0, maxLength);
    all = all.slice(0, maxLength);
  }
  return { input_ids: inputIds, labels: all };
}

/** trl/data_utils.py `is_conversational`. */
export function isConversational(ex: Record<string, unknown>): boolean {
  for (const key of ["prompt", "chosen", "rejected", "completion", "messages"]) {
    if (!(key in ex)) continue;
    const m = ex[key];
    return Array.isArray(m) && m.length > 0 && m[0] !== null && typeof m[0] === "object" && "role" in (m[0] as object);
  }
  return false;
}

/**
 * A chat template stand-in: what TRL checks through `apply_chat_template` is that roles alternate
 * user/assistant (most templates raise otherwise); each message becomes `<role>\ncontent\n`.
 */
function chatTemplate(messages: unknown): string {
  if (!Array.isArray(messages)) throw new PyError("TypeError: chat template expects a list of messages");
  return messages
    .map((m: { role?: unknown; content?: unknown }, i) => {
      const want = i % 2 === 0 ? "user" : "assistant";
      if (m.role !== want) throw new PyError("TemplateError: Conversation roles must alternate user/assistant/user/assistant/...");
      if (typeof m.content !== "string") throw new PyError("TemplateError: content must be a string");
      return `<${m.role}>\n${m.content}\n`;
    })
    .join("");
}

const tokenize = (x: unknown, conversational: boolean): number[] => [BOS_ID, ...enc(conversational ? chatTemplate(x) : (x as string))];

/** trl/trainer/reward_trainer.py `_prepare_dataset`: add EOS (standard layout), prompt + side, tokenize. */
export function trlRewardTokenize(ex: Record<string, unknown>): { chosen_ids: number[]; rejected_ids: number[] } {
  const e = { ...ex };
  const conv = isConversational(e);
  if (!conv) {
    if (!pyEndswith(e["chosen"], EOS)) e["chosen"] = pyAdd(e["chosen"], EOS);
    if ("rejected" in e && !pyEndswith(e["rejected"], EOS)) e["rejected"] = pyAdd(e["rejected"], EOS);
  }
  if ("prompt" in e) {
    e["chosen"] = pyAdd(e["prompt"], e["chosen"]);
    e["rejected"] = pyAdd(e["prompt"], e["rejected"]);
  }
  return { chosen_ids: tokenize(e["chosen"], conv), rejected_ids: tokenize(e["rejected"], conv) };
}

/**
 * trl/trainer/dpo_trainer.py `tokenize_fn`: prompt and prompt + side tokenized separately; TRL
 * warns when the prompt's tokens are not a prefix of prompt + side's (a bad boundary).
 */
export function trlDpoTokenize(ex: Record<string, unknown>): { prompt_ids: number[]; chosen_ids: number[]; rejected_ids: number[]; prefixMismatch: boolean } {
  const e = { ...ex };
  const conv = isConversational(e);
  if (!conv) {
    if (!pyEndswith(e["chosen"], EOS)) e["chosen"] = pyAdd(e["chosen"], EOS);
    if (!pyEndswith(e["rejected"], EOS)) e["rejected"] = pyAdd(e["rejected"], EOS);
  }
  const promptIds = tokenize(e["prompt"], conv);
  const pc = tokenize(pyAdd(e["prompt"], e["chosen"]), conv);
  const pr = tokenize(pyAdd(e["prompt"], e["rejected"]), conv);
  const isPrefix = (ids: number[]) => promptIds.every((t, i) => ids[i] === t);
  return {
    prompt_ids: promptIds,
    chosen_ids: pc.slice(promptIds.length),
    rejected_ids: pr.slice(promptIds.length),
    prefixMismatch: !isPrefix(pc) || !isPrefix(pr),
  };
}

/**
 * The chat-template stand-in as token ids, with the mask of the assistant contents (what a
 * template's `{% generation %}` block marks for `return_assistant_tokens_mask`).
 */
function chatTokens(messages: unknown, addGenerationPrompt: boolean): { ids: number[]; assistant: number[] } {
  chatTemplate(messages); // the role checks
  const ids = [BOS_ID];
  const assistant = [0];
  for (const m of messages as { role: string; content: string }[]) {
    const head = enc(`<${m.role}>\n`);
    const body = enc(`${m.content}\n`);
    ids.push(...head, ...body);
    assistant.push(...head.map(() => 0), ...body.map(() => (m.role === "assistant" ? 1 : 0)));
  }
  if (addGenerationPrompt) {
    const head = enc("<assistant>\n");
    ids.push(...head);
    assistant.push(...head.map(() => 0));
  }
  return { ids, assistant };
}

/** trl/data_utils.py `remove_none_values` (applied by SFTTrainer: Arrow fills missing nested keys with None). */
function removeNoneValues(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(removeNoneValues);
  if (x !== null && typeof x === "object") return Object.fromEntries(Object.entries(x).filter(([, v]) => v !== null).map(([k, v]) => [k, removeNoneValues(v)]));
  return x;
}

/**
 * trl/trainer/sft_trainer.py `_prepare_dataset` (TRL 0.24-1.x): `remove_none_values`, EOS added
 * to a standard completion, then `tokenize_fn`: prompt-completion (standard or conversational,
 * the prompt with `add_generation_prompt`, `completion_mask`) or conversational language
 * modelling (`messages`, `assistant_masks` with `assistant_only_loss`, which raises when a row
 * has no assistant token).
 */
export function trlSftTokenize(
  ex: Record<string, unknown>,
  assistantOnlyLoss = false,
): { input_ids: number[]; completion_mask: number[] | null; assistant_masks: number[] | null; prefixMismatch: boolean } {
  const e = removeNoneValues(ex) as Record<string, unknown>;
  const conv = isConversational(e);
  if (assistantOnlyLoss && !conv) throw new PyError("ValueError: You set `assistant_only_loss=True`, but the dataset is not conversational.");
  if (!conv && "completion" in e && !pyEndswith(e["completion"], EOS)) e["completion"] = pyAdd(e["completion"], EOS);
  if ("prompt" in e) {
    const promptIds = conv ? chatTokens(e["prompt"], true).ids : tokenize(e["prompt"], false);
    const full = conv ? chatTokens(pyAdd(e["prompt"], e["completion"]), false) : { ids: tokenize(pyAdd(e["prompt"], e["completion"]), false), assistant: [] };
    const mismatch = !promptIds.every((t, i) => full.ids[i] === t);
    return {
      input_ids: full.ids,
      completion_mask: [...promptIds.map(() => 0), ...full.ids.slice(promptIds.length).map(() => 1)],
      assistant_masks: conv && assistantOnlyLoss ? full.assistant : null,
      prefixMismatch: mismatch,
    };
  }
  if (!conv) throw new PyError("KeyError: 'text'");
  const t = chatTokens(e["messages"], false);
  if (assistantOnlyLoss && !t.assistant.includes(1)) throw new PyError("RuntimeError: You're using `assistant_only_loss=True`, but at least one example has no assistant tokens.");
  return { input_ids: t.ids, completion_mask: null, assistant_masks: assistantOnlyLoss ? t.assistant : null, prefixMismatch: false };
}

/**
 * examples/datasets/math_shepherd.py `process_example` (TRL's conversion of the Math-Shepherd
 * layout to stepwise supervision), after `map(remove_columns=["input", "label", "task"])`
 * checked the columns exist. The annotation-error special cases do not apply to our text.
 */
export function trlMathShepherd(ex: Record<string, unknown>): { prompt: string; completions: string[]; labels: boolean[] } {
  for (const c of ["input", "label", "task"]) if (!(c in ex)) throw new PyError(`ValueError: Column to remove ['${c}'] not in the dataset`);
  const label = ex["label"] as string;
  const inputs = (ex["input"] as string).replaceAll("ки", "ⶻ");
  const indexes = [...inputs.matchAll(/ⶻ/g)].map((m) => m.index);
  if (!indexes.every((i) => label[i] === "+" || label[i] === "-")) throw new PyError("AssertionError (labels at the ки positions)");
  const labels = indexes.map((i) => label[i] === "+");
  const starts = [0, ...indexes];
  let steps = starts.map((s, k) => inputs.slice(s, k < indexes.length ? indexes[k] : undefined));
  steps = steps.slice(0, -1);
  let prompt = steps[0]!;
  let completions = steps.slice(1);
  if (!completions.every((c) => c.startsWith("ⶻ"))) throw new PyError("AssertionError (completions start with ⶻ)");
  completions = completions.map((c) => c.slice(1).trim());
  const key = ["Step 1:", "step 1:", "?"].find((k) => prompt.includes(k));
  if (key === undefined) throw new PyError(`ValueError: Prompt can't be processed: ${prompt}`);
  const parts = prompt.split(key);
  if (parts.length !== 2) throw new PyError("ValueError: too many values to unpack (expected 2)");
  prompt = key === "?" ? parts[0]! + key : parts[0]!;
  completions = [(key === "?" ? parts[1]! : key + parts[1]!).trim(), ...completions];
  prompt = prompt.trim();
  if (completions.length !== labels.length) throw new PyError("AssertionError: len(completions) == len(labels)");
  return { prompt, completions, labels };
}

/**
 * `to_stepwise` of docs/training.md ("From math-shepherd rows"), line for line: the steps are
 * the input's last lines that end in " ки", the label's matching lines end in " +" or " -".
 * It needs no file from outside and keeps the prompt's final newline.
 */
export function docsMathShepherdToStepwise(r: Record<string, unknown>): { prompt: string; completions: string[]; labels: boolean[] } {
  const lines = (r["input"] as string).split("\n");
  const marks = (r["label"] as string).split("\n");
  let n = 0;
  while (n < lines.length && lines[lines.length - 1 - n]!.endsWith(" ки")) n += 1;
  return {
    prompt: lines.slice(0, lines.length - n).join("\n") + "\n",
    completions: lines.slice(lines.length - n).map((l) => l.slice(0, -3)),
    labels: marks.slice(marks.length - n).map((m) => m.endsWith(" +")),
  };
}

// --- The paper's released PRMs (Babelscape/Llama-3.1-8B-PRM800k-PDDL-r, model card) -------

/** The model card's `build_prompt(problem, steps)`. */
export function paperBuildPrompt(problem: string, steps: readonly string[]): string {
  const stepsText = steps.map((s, i) => `Step ${i + 1}: ${s}\nки`).join("\n");
  return `Problem: ${problem}\nSteps:\n${stepsText}`;
}

/**
 * The card's scoring: `marker_id = tokenizer.encode("ки", add_special_tokens=False)[0]`, the
 * positions of `marker_id` in the tokenized prompt, where the scalar head's outputs are read.
 */
export function paperMarkerPositions(text: string): number[] {
  const marker = enc("ки")[0]!;
  return enc(text).flatMap((t, i) => (t === marker ? [i] : []));
}

// --- OpenRLHF 0.9.5 ------------------------------------------------------------------------

/** openrlhf/utils/utils.py `convert_token_to_id`. */
export function convertTokenToId(token: string): number {
  const ids = enc(token);
  if (ids.length !== 1) throw new PyError(`AssertionError: '${token}' is ${ids.length} tokens`);
  return ids[0]!;
}

/**
 * openrlhf/datasets/process_reward_dataset.py `ProcessRewardDataset.__getitem__` (0.5.6-0.9.5)
 * with the recipe's flags (--input_key input --label_key value --placeholder_token ки
 * --reward_tokens + -). Labels go into `torch.full_like(input_ids, -100)`, an int64 tensor:
 * float labels do not survive that (index_put refuses a float source).
 */
export function openRlhfItem(row: Record<string, unknown>, maxLen = 2048, keys = { input: "input", label: "value" }): { input_ids: number[]; labels: number[] } {
  const placeholderId = convertTokenToId("ки");
  const rewardTokens = ["+", "-"];
  const inputIds = enc(row[keys.input] as string).slice(0, maxLen);
  const values = row[keys.label];
  if (!Array.isArray(values)) throw new PyError("AssertionError: labels should be a list of strings or numbers");
  let labelTensor: number[];
  if (typeof values[0] === "string") {
    labelTensor = (values as string[]).map((l) => {
      if (!rewardTokens.includes(l)) throw new PyError(`AssertionError: label should be in reward tokens ${rewardTokens}, got ${l}`);
      return convertTokenToId(l);
    });
  } else {
    throw new PyError("RuntimeError: Index put requires the source and destination dtypes match, got Long for the destination and Float for the source");
  }
  const positions = inputIds.flatMap((id, i) => (id === placeholderId ? [i] : []));
  const truncated = labelTensor.slice(0, positions.length);
  if (truncated.length !== positions.length) {
    throw new PyError(`RuntimeError: shape mismatch: value tensor of shape [${truncated.length}] cannot be broadcast to indexing result of shape [${positions.length}]`);
  }
  const labels = inputIds.map(() => -100);
  positions.forEach((p, k) => (labels[p] = truncated[k]!));
  return { input_ids: inputIds, labels };
}

// --- pyarrow's JSON type inference ------------------------------------------------------------

/** An Arrow type as inferred from one JSON value: number literals with '.' or 'e' are double. */
export type ArrowType = "null" | "bool" | "int64" | "double" | "string" | { list: ArrowType } | { struct: Record<string, ArrowType> };

/** Infer the Arrow type of every top-level field of one JSON line, from its text. */
export function arrowTypesOfLine(line: string): Record<string, ArrowType> {
  let i = 0;
  const ws = () => {
    while (/\s/.test(line[i] ?? "")) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (line[i] !== '"') i += line[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(line.slice(start, i)) as string;
  };
  const value = (): ArrowType => {
    ws();
    const c = line[i]!;
    if (c === "{") {
      i++;
      const fields: Record<string, ArrowType> = {};
      ws();
      if (line[i] === "}") {
        i++;
        return { struct: fields };
      }
      for (;;) {
        ws();
        const k = str();
        ws();
        i++; // ':'
        fields[k] = value();
        ws();
        if (line[i++] === "}") return { struct: fields };
      }
    }
    if (c === "[") {
      i++;
      let t: ArrowType = "null";
      ws();
      if (line[i] === "]") {
        i++;
        return { list: t };
      }
      for (;;) {
        t = unify(t, value(), "[]");
        ws();
        if (line[i++] === "]") return { list: t };
      }
    }
    if (c === '"') {
      str();
      return "string";
    }
    const m = /^(true|false|null|-?\d+(\.\d+)?([eE][-+]?\d+)?)/.exec(line.slice(i))!;
    i += m[0].length;
    if (m[1] === "null") return "null";
    if (m[1] === "true" || m[1] === "false") return "bool";
    return m[2] !== undefined || m[3] !== undefined ? "double" : "int64";
  };
  const t = value();
  if (typeof t !== "object" || !("struct" in t)) throw new Error("not a JSON object");
  return t.struct;
}

/** Unify two inferred types of one column; a conflict (int64 with double, string with number, ...) throws naming the path. */
export function unify(a: ArrowType, b: ArrowType, path: string): ArrowType {
  if (a === "null") return b;
  if (b === "null") return a;
  if (typeof a === "string" || typeof b === "string") {
    if (a === b) return a;
    throw new Error(`column ${path} changed from ${JSON.stringify(a)} to ${JSON.stringify(b)}`);
  }
  if ("list" in a && "list" in b) return { list: unify(a.list, b.list, `${path}[]`) };
  if ("struct" in a && "struct" in b) {
    const out: Record<string, ArrowType> = { ...a.struct };
    for (const [k, t] of Object.entries(b.struct)) out[k] = k in out ? unify(out[k]!, t, `${path}.${k}`) : t;
    return { struct: out };
  }
  throw new Error(`column ${path} changed from ${JSON.stringify(a)} to ${JSON.stringify(b)}`);
}

// --- Hugging Face datasets 5.0 load_dataset(DIR) -------------------------------------------

/**
 * What `datasets.load_dataset(DIR)` does with a folder's card before reading a row: the
 * `configs[0].data_files` globs resolve to files (`FileNotFoundError` when one matches none),
 * a split whose files hold no row raises `ValueError: Instruction "x" corresponds to no data!`
 * (the error users met on 2-problem runs), and `dataset_info.splits` must name the same splits
 * with their exact sizes (`NonMatchingSplitsSizesError`). Returns the rows per split.
 * The card's YAML is pddl2prm's own, indented as written: only that subset is parsed.
 */
export function hfLoadSplits(dir: string): Record<string, number> {
  const card = readFileSync(join(dir, "README.md"), "utf8");
  const front = card.startsWith("---\n") ? card.slice(4, card.indexOf("\n---\n", 4)) : "";
  const lines = front.split("\n");
  const block = (head: string): string[] => {
    const at = lines.findIndex((l) => l.trimEnd() === head || l.startsWith(head + " "));
    if (at < 0) throw new PyError(`card: no ${head.trim()}`);
    const ind = head.length - head.trimStart().length;
    const out: string[] = [];
    for (const l of lines.slice(at + 1)) {
      if (l.trim() !== "" && l.length - l.trimStart().length <= ind && !l.trimStart().startsWith("- ")) break;
      if (l.trim() !== "" && l.length - l.trimStart().length < ind) break;
      out.push(l);
    }
    return out;
  };
  const files: Record<string, string> = {};
  let split = "";
  for (const l of block("  data_files:")) {
    const m = /^\s*-?\s*(split|path):\s*(.+)$/.exec(l);
    if (m?.[1] === "split") split = m[2]!;
    else if (m?.[1] === "path") files[split] = m[2]!;
  }
  const declared: Record<string, number> = {};
  let name = "";
  for (const l of block("  splits:")) {
    const m = /^\s*-?\s*(name|num_examples):\s*(.+)$/.exec(l);
    if (m?.[1] === "name") name = m[2]!;
    else if (m?.[1] === "num_examples") declared[name] = Number(m[2]);
  }
  const rows: Record<string, number> = {};
  for (const [s, pattern] of Object.entries(files)) {
    const slash = pattern.lastIndexOf("/");
    const folder = join(dir, pattern.slice(0, slash));
    const re = new RegExp("^" + pattern.slice(slash + 1).replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*") + "$");
    const matched = readdirSync(folder).filter((n) => re.test(n));
    if (matched.length === 0) throw new PyError(`FileNotFoundError: Unable to find '${pattern}'`);
    rows[s] = matched.reduce((a, n) => {
      const raw = readFileSync(join(folder, n));
      const text = n.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
      return a + text.split("\n").filter((x) => x.trim() !== "").length;
    }, 0);
    if (rows[s] === 0) throw new PyError(`ValueError: Instruction "${s}" corresponds to no data!`);
  }
  const a = JSON.stringify(Object.keys(rows).sort()), b = JSON.stringify(Object.keys(declared).sort());
  if (a !== b) throw new PyError(`ValueError: data_files splits ${a} differ from dataset_info.splits ${b}`);
  for (const s of Object.keys(rows)) if (rows[s] !== declared[s]) throw new PyError(`NonMatchingSplitsSizesError: ${s}: ${declared[s]} expected, ${rows[s]} recorded`);
  return rows;
}
