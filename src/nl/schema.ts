import { z } from "zod";

/** A list of paraphrases of one text; the renderer picks one per use with the row's PRNG. */
const paraphrases = z.array(z.string().min(1, "empty text")).min(1, "needs at least one paraphrase");

/**
 * How objects of one type are named. `phrase` may use `{name}` (the PDDL object name) and the
 * named groups of `match`, e.g. match "^f(?<n>\\d+)$" with phrase "floor {n}" names `f3`
 * "floor 3". When `match` does not match, the object is "<noun> <name>". `single` names the
 * object when it is the only one of its type ("the ferry").
 */
export const TypeEntrySchema = z
  .object({
    noun: z.string().min(1).optional(),
    plural: z.string().min(1).optional(),
    phrase: z.string().min(1).optional(),
    match: z.string().min(1).optional(),
    fallback: z.string().min(1).optional(),
    single: z.string().min(1).optional(),
  })
  .strict();

/**
 * Templates for one predicate: `true` and `false` paraphrases with placeholders named after the
 * predicate's PDDL parameters (`{x}` for `?x`). `static` (optional) phrases, in the prompt, many
 * static facts that share every argument except the `over` ones in one clause: each fact gives
 * an `item` (over the `over` parameters; default: the single `over` object), the items are listed
 * ("a, b and c") and `text` places the list where it names an `over` parameter or `{items}`.
 * E.g. over "y", text "{x} is smaller than {y}" gives "disk 1 is smaller than disk 2, disk 3 and
 * peg 1". `over` defaults to the last parameter.
 */
export const PredicateEntrySchema = z
  .object({
    true: paraphrases,
    false: paraphrases,
    static: z
      .object({
        over: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
        item: paraphrases.optional(),
        text: paraphrases,
      })
      .strict()
      .optional(),
  })
  .strict();

/** The nl.json file of a domain (DESIGN.md §8). */
export const NlJsonSchema = z
  .object({
    $schema: z.string().optional(),
    /** Name of the domain the file is written for (checked against domain.pddl when given). */
    domain: z.string().min(1).optional(),
    /**
     * The domain's rules in prose, several paraphrases. `{rules}`, the only placeholder allowed,
     * stands for the rules written from the action schemas with the file's action and predicate texts.
     */
    intro: z.array(z.string().min(1, "empty text")).min(3, "needs at least three paraphrases"),
    /** Noun phrases per type. */
    types: z.record(TypeEntrySchema).default({}),
    /** True/false templates per predicate. */
    predicates: z.record(PredicateEntrySchema).default({}),
    /** What-I-do verb phrases per action ("pick up {x}"), every parameter used (at least once). */
    actions: z.record(z.array(z.string().min(1, "empty text")).min(3, "needs at least three paraphrases")).default({}),
    /** Goal sentence with `{goal}` for the list of goal conditions. */
    goal: paraphrases,
    /** Closing instruction of the prompt. */
    instruction: paraphrases,
  })
  .strict();

/** The raw (validated) content of an nl.json file. */
export type NlJson = z.infer<typeof NlJsonSchema>;
export type TypeEntry = z.infer<typeof TypeEntrySchema>;
export type PredicateEntry = z.infer<typeof PredicateEntrySchema>;
