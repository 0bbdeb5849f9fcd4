/**
 * The JSON line of a preference row (step pairs, trajectory pairs) in TRL's standard or
 * conversational layout.
 */
import { jsonWithFloats, STEP_SEPARATOR } from "./layout.js";

/** What both preference rows have: TRL's explicit-prompt preference columns. */
export interface PreferenceColumns {
  /** Ends with the separator, so `prompt + chosen` reads as one chain of steps. */
  prompt: string;
  chosen: string;
  rejected: string;
}

/** The columns both preference products write besides their own (`level`, `*_action(s)`, ...). */
export interface PreferenceRow extends PreferenceColumns {
  id: string;
  domain: string;
  problem: string;
  split: string;
  /** chosen reward - rejected reward: TRL RewardTrainer's `margin`. */
  margin: number;
}

/**
 * One JSON line of a preference row. With `chat`, TRL's conversational layout: the prompt as one
 * user message (the problem and the steps so far, so that prompt + chosen alternates
 * user/assistant as every chat template requires), each side as one assistant message.
 */
export function preferenceLine(row: PreferenceColumns, floatKeys: ReadonlySet<string>, chat: boolean): string {
  if (!chat) return jsonWithFloats(row, floatKeys);
  const user = row.prompt.endsWith(STEP_SEPARATOR) ? row.prompt.slice(0, -STEP_SEPARATOR.length) : row.prompt;
  return jsonWithFloats(
    {
      ...row,
      prompt: [{ role: "user", content: user }],
      chosen: [{ role: "assistant", content: row.chosen }],
      rejected: [{ role: "assistant", content: row.rejected }],
    },
    floatKeys,
  );
}
