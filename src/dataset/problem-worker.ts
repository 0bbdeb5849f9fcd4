import { generateProblems, type GeneratedProblem } from "../generators/index.js";

/** A domain's fresh problem set, or why it could not be made (the main thread then makes it and reports). */
export type ProblemSetReply = { ok: true; problems: GeneratedProblem[] } | { ok: false; message: string };

/** The `makeProblemSet` task of the labelling pool (`pregenerateProblems`): one domain's `generateProblems`. */
export function makeProblemSet(input: { name: string; count: number; seed: number }): ProblemSetReply {
  try {
    return { ok: true, problems: generateProblems(input.name, { count: input.count, seed: input.seed, planLengths: false }) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
