/**
 * How products lay text and numbers out for trainers: the step separator of TRL's stepwise
 * layout, one step per line, the prompt ending where the first step begins, chat messages, and
 * JSON whose float fields always print with a decimal point (so every shard loads as float64).
 */

/** The step separator of TRL's PRMTrainer (`step_separator`): never inside a step. */
export const STEP_SEPARATOR = "\n";

/** A step on one line: the separator (a newline) inside a step would split it in two for the trainer. */
export function oneLine(step: string): string {
  return step.includes("\n") ? step.replace(/\s*\n\s*/g, " ") : step;
}

/**
 * The prompt as TRL concatenates it with what follows (`prompt + completion`): the problem text
 * and the separator, so the first step starts on its own line.
 */
export function trainerPrompt(problemText: string): string {
  return `${problemText}${STEP_SEPARATOR}`;
}

/** A float that always prints with a decimal point (1 -> "1.0") so every shard loads as float64. */
export function formatFloat(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/**
 * JSON text in which every number under a key of `floatKeys` (at any depth, also inside
 * arrays) prints with a decimal point (1 -> 1.0), so loaders read float64. Key order is kept;
 * undefined values are left out.
 */
export function jsonWithFloats(value: unknown, floatKeys: ReadonlySet<string>, float = false): string {
  if (typeof value === "number") return float && Number.isFinite(value) ? formatFloat(value) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => jsonWithFloats(v, floatKeys, float)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      parts.push(`${JSON.stringify(k)}:${jsonWithFloats(v, floatKeys, floatKeys.has(k))}`);
    }
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** One message of TRL's conversational layouts. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}
