/**
 * Reading a model's answer to a reasoning question as models write it (issue 52): reasoning in
 * `<think>` blocks, markdown emphasis and code, "The answer is B", "Answer: (b)", "**Yes**, because
 * ...", "Final answer: no", a letter alone or in brackets, an option's letter after "Option".
 * What cannot be read is `null` (counted as unparsed by `score`), never a guess: a text naming both
 * "yes" and "no" with no marker of the final answer is unparsed.
 */

/** The answer part of a model's text: no `<think>` blocks, no markdown emphasis or code marks. */
export function answerText(text: string): string {
  let t = text.replace(/<think>[\s\S]*?<\/think>/gi, " ");
  // an unclosed <think> (a model cut off) leaves its reasoning out too, up to the last line
  const open = t.search(/<think>/i);
  if (open >= 0) t = t.slice(0, open) + t.slice(open).split("\n").slice(-1).join("");
  return t.replace(/\*\*|__|`/g, "").replace(/\\boxed\{([^}]*)\}/g, "$1").trim();
}

// "The answer is X", "Answer: X", "Final answer - X", "My answer: X" (the last one counts)
const MARKED = /(?:final\s+answer|the\s+answer\s+is|answer\s*(?:is)?\s*[:=-]|correct\s+(?:answer|option|choice)\s+is|i\s+(?:choose|pick|select))\s*[:\-]?\s*[("'[]?\s*([A-Za-z]+)\b/gi;

function lastMarked(t: string): string | null {
  let last: string | null = null;
  for (const m of t.matchAll(MARKED)) last = m[1]!;
  return last;
}

/** "yes" or "no", or null when the text does not say which. */
export function readYesNo(text: string): "yes" | "no" | null {
  const t = answerText(text);
  const marked = lastMarked(t)?.toLowerCase();
  if (marked === "yes" || marked === "no") return marked;
  if (marked === "true") return "yes";
  if (marked === "false") return "no";
  // the first word ("Yes.", "(no)", "No, because ...")
  const first = /^[\s("'[]*(yes|no|true|false)\b/i.exec(t)?.[1]?.toLowerCase();
  if (first !== undefined) return first === "yes" || first === "true" ? "yes" : "no";
  // one of them alone, as a word, anywhere
  const words = new Set([...t.matchAll(/\b(yes|no)\b/gi)].map((m) => m[1]!.toLowerCase()));
  return words.size === 1 ? ([...words][0] as "yes" | "no") : null;
}

/** An option letter (upper case) among `letters`, or null. */
export function readChoice(text: string, letters = "ABCD"): string | null {
  const t = answerText(text);
  const ok = (x: string | undefined): string | null => (x !== undefined && x.length === 1 && letters.includes(x.toUpperCase()) ? x.toUpperCase() : null);
  const marked = ok(lastMarked(t) ?? undefined);
  if (marked !== null) return marked;
  // "Option C", "choice (b)"
  let last: string | null = null;
  for (const m of t.matchAll(/\b(?:option|choice)\s*\(?\s*([A-Za-z])\b/gi)) last = ok(m[1]);
  if (last !== null) return last;
  // the letter first: "B", "(B)", "b)", "[C]", "D. unstack a b", "A: ..."
  const first = /^[\s("'[]*([A-Za-z])(?:\s*[)\].:,]|\s*$|\s+-)/.exec(t)?.[1];
  if (ok(first) !== null) return ok(first);
  // one upper-case letter alone in a short answer
  // (not the article: "A plan cannot be found")
  const alone = new Set(
    [...t.matchAll(/(?<![A-Za-z'])([A-D])(?![A-Za-z'])/g)]
      .filter((m) => !(m[1] === "A" && /^\s+[a-z]/.test(t.slice(m.index! + 1))))
      .map((m) => m[1]!)
      .filter((x) => letters.includes(x)),
  );
  return t.length <= 80 && alone.size === 1 ? [...alone][0]! : null;
}

/**
 * A progression answer in ACPBench's forms as signed atoms: "[(a), (b)] [(c)]" (the facts that
 * become true, then those that become false) or "Positive effects: ... Negative effects: ...";
 * null when the text has neither form (the caller reads "+(..)"/"-(..)" or words).
 */
export function readEffectLists(text: string): { add: string; del: string } | null {
  const t = answerText(text);
  const pos = /positive\s+effects?\s*(?:are|:)?\s*([\s\S]*?)(?=negative\s+effects?|$)/i.exec(t);
  const neg = /negative\s+effects?\s*(?:are|:)?\s*([\s\S]*)$/i.exec(t);
  if (pos !== null || neg !== null) return { add: pos?.[1] ?? "", del: neg?.[1] ?? "" };
  const lists = [...t.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
  if (lists.length === 2) return { add: lists[0]!, del: lists[1]! };
  return null;
}
