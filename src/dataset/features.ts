/**
 * The columns of every output format as Hugging Face features: written into the dataset card
 * (YAML) and, for Parquet shards, into the files' schema, so both declare the same types.
 */
/** A Hugging Face feature (the subset the cards use): a value, a sequence of values, a struct, a list of structs. */
export type Dtype = "string" | "int64" | "float64" | "bool";
export type Feature =
  | { name: string; dtype: Dtype }
  | { name: string; sequence: Dtype }
  | { name: string; struct: Feature[] }
  | { name: string; list: Feature[] };

const s = (name: string): Feature => ({ name, dtype: "string" });
const i = (name: string): Feature => ({ name, dtype: "int64" });
const d = (name: string): Feature => ({ name, dtype: "float64" });
const b = (name: string): Feature => ({ name, dtype: "bool" });
const seq = (name: string, t: Dtype): Feature => ({ name, sequence: t });
const struct = (name: string, fields: Feature[]): Feature => ({ name, struct: fields });
/** A list of chat messages (TRL's conversational layout), with extra message fields. */
const messages = (name: string, ...extra: Feature[]): Feature => ({ name, list: [s("role"), s("content"), ...extra] });

/** `features` as the YAML of a card's `dataset_info.features`. */
export function featuresYaml(fs: readonly Feature[], ind = "  "): string {
  return fs
    .map((f) => {
      const head = `${ind}- name: ${f.name}`;
      if ("dtype" in f) return `${head}\n${ind}  dtype: ${f.dtype}`;
      if ("sequence" in f) return `${head}\n${ind}  sequence: ${f.sequence}`;
      if ("struct" in f) return `${head}\n${ind}  struct:\n${featuresYaml(f.struct, ind + "  ")}`;
      return `${head}\n${ind}  list:\n${featuresYaml(f.list, ind + "  ")}`;
    })
    .join("\n");
}

/** Hugging Face `dataset_info.features` (YAML) for each output format (labels declared float64). */
export function features(format: string, chat: boolean, style?: string): Feature[] {
  switch (format) {
    case "trl":
      return [s("id"), s("prompt"), seq("completions", "string"), seq("labels", "bool"), seq("rewards", "float64"), s("category")];
    case "openrlhf":
      return [s("id"), s("input"), seq("value", "string"), seq("rewards", "float64"), s("category")];
    case "math-shepherd":
      return [s("id"), s("input"), s("label"), s("task"), s("category")];
    case "paper-prm":
      return [s("id"), s("domain"), s("problem_id"), s("split"), s("problem"), seq("steps", "string"), seq("rewards", "float64"), s("text"), s("category")];
    case "pairs":
    case "trajectories":
    case "processbench":
      return evalFeatures(format, chat);
    case "feedback":
    case "verifier":
      return productFeatures(format, chat, style);
    case "acp":
      return [
        s("id"), s("domain"), s("problem"), s("split"), s("kind"), s("form"), s("question"), seq("choices", "string"), s("answer"), s("prompt"), s("completion"),
        struct("meta", [i("state_index"), s("proof"), struct("gold", [s("answer"), seq("accept", "string"), seq("set", "string")]), i("states"), seq("items", "string"), seq("prefix", "string"), s("action"), seq("plan", "string"), i("horizon"), i("seed")]),
      ];
    case "rl":
      return [
        s("id"), s("domain"), s("problem"), s("split"), chat ? messages("prompt") : s("prompt"), s("answer"), i("optimal_cost"), i("plan_length"), s("step_syntax"),
        s("domain_pddl"), s("problem_pddl"), s("pddl_sha256"), s("data_source"), s("ability"),
        struct("reward_model", [s("style"), s("ground_truth")]),
        struct("extra_info", [s("id"), s("domain"), s("problem"), s("split"), i("optimal_cost"), i("plan_length"), s("pddl_sha256")]),
      ];
    default:
      return [
        s("id"),
        s("domain"),
        s("problem"),
        s("split"),
        s("prompt"),
        seq("completions", "string"),
        seq("labels", "float64"),
        s("category"),
        s("critique"),
        struct("meta", [
          i("state_index"), seq("prefix", "string"), s("action"), d("h_before"), d("h_after"),
          d("cost"), d("extra_cost"), seq("failed_preconditions", "string"), i("revisits"),
          i("backtrack_to"), s("dead_end_proof"), i("plan_length"), i("seed"),
        ]),
      ];
  }
}

/** Features of the evaluation formats (src/products/pairs.ts, trajectories.ts, processbench.ts). */
function evalFeatures(format: string, chat: boolean): Feature[] {
  const head = [s("id"), s("level"), s("domain"), s("problem"), s("split")];
  const pref = chat ? [messages("prompt"), messages("chosen"), messages("rejected")] : [s("prompt"), s("chosen"), s("rejected")];
  if (format === "pairs") {
    const side = (n: string) => [s(`${n}_action`), s(`${n}_category`), d(`${n}_reward`)];
    return [
      ...head,
      ...pref,
      d("margin"),
      ...side("chosen"),
      ...side("rejected"),
      s("edit"),
      s("first"),
      struct("meta", [
        i("state_index"), seq("prefix_actions", "string"), d("h_before"), d("chosen_extra_cost"),
        d("rejected_extra_cost"), seq("failed_preconditions", "string"), i("plan_length"), i("seed"),
      ]),
    ];
  }
  if (format === "trajectories") {
    const side = (n: string) => [seq(`${n}_actions`, "string"), b(`${n}_valid`), d(`${n}_cost`), i(`${n}_length`), i(`${n}_first_error`), seq(`${n}_rewards`, "float64")];
    return [
      ...head,
      ...pref,
      d("margin"),
      s("first"),
      s("perturbation"),
      ...side("chosen"),
      ...side("rejected"),
      struct("meta", [i("position"), s("chosen_kind"), i("chosen_position"), d("optimal_cost"), s("longer"), s("length_fit"), s("error_category"), i("seed")]),
    ];
  }
  return [
    s("id"),
    s("problem"),
    seq("steps", "string"),
    i("label"),
    struct("meta", [
      s("domain"), s("problem_id"), s("split"), s("error_def"), s("category"), s("continuation"),
      seq("actions", "string"), seq("step_rewards", "float64"), seq("step_categories", "string"), i("length"),
      s("length_bucket"), i("plan_length"), d("optimal_cost"), i("seed"),
    ]),
  ];
}

/** Features of the products of src/products written as formats (feedback, verifier). */
function productFeatures(format: string, chat: boolean, style?: string): Feature[] {
  const head = [s("id"), s("domain"), s("problem"), s("split")];
  if (format === "feedback") {
    const meta = [seq("actions", "string"), seq("categories", "string"), seq("mistakes", "string"), s("outcome"), d("cost"), d("optimal_cost"), i("plan_length"), i("seed")];
    // (a feedback folder without a recorded style is an older one: dialogues)
    if (style === "turns") {
      return [...head, messages("prompt", d("reward")), messages("completion", d("reward")), struct("meta", [...meta, i("turn"), b("recovery")])];
    }
    return [...head, messages("messages", d("reward")), struct("meta", meta)];
  }
  return [
    ...head,
    chat ? messages("prompt") : s("prompt"),
    chat ? messages("completion") : s("completion"),
    i("label"),
    d("score"),
    struct("meta", [
      s("style"), s("error_def"), s("category"), seq("actions", "string"), seq("step_rewards", "float64"), seq("step_categories", "string"),
      i("length"), s("length_bucket"), i("plan_length"), d("optimal_cost"), i("seed"),
    ]),
  ];
}

