/**
 * Probes: what a model could learn from a row beyond its action. Each probe adds one view of a
 * unit (the candidate's words or characters, its position, the step before it, the prompt) to a
 * prior that sees only the action, trains both on the train problems and measures on held-out
 * problems how much the view improves ranking: per class, one against the rest (a leak into a
 * class of 1% of the rows shows as plainly as one into the majority), or, for pairs, how much
 * more often it picks the chosen side. A gain past the limit and beyond noise fails the audit,
 * and the probe's heaviest features are named.
 */
import type { Act } from "./actions.js";
import { apGain, clusteredMean, LogisticRegression, words } from "./measures.js";
import type { ChainUnit, PairUnit, Side, StepUnit } from "./units.js";

/** One probe's result for one class (or pair group). */
export interface ProbeResult {
  probe: string;
  /** The class, one against the rest ("error" for chains; pairs: "all" or a rejected category / perturbation). */
  group: string;
  /**
   * `ap`: average precision of each model's class probability for finding the class (one
   * against the rest); `pick`: share of pairs whose chosen side the model finds likelier chosen.
   */
  measure: "ap" | "pick";
  /** What the prior sees. */
  prior_reads: string;
  /** Test items of the class (pairs: pairs). */
  n: number;
  prior: number;
  probe_value: number;
  gain: number;
  se: number;
  /** Gated (a check) or reported only. */
  gated: boolean;
  /** The probe's tokens that raise the class most (its own view only). */
  top: string[];
}

type Tokens = (string | readonly string[])[];

/** One view: the tokens it adds, and whether its gain is gated. */
interface Spec<U> {
  name: string;
  gated: boolean;
  /** The prior's name and tokens (the action, or the action and the previous action). */
  prior: { name: string; tokens: (u: U) => Tokens };
  extra: (u: U) => Tokens;
  /** Token prefixes of the view's own features (for `top`). */
  own: string[];
}

/** Most test units a probe keeps (sampled before: `runAudit` caps the classifiers' test set). */
const ACTION = "the action (type and objects)";
const ACTION_PREV = "the action and the previous action";

const flat = (t: Tokens): string[] => {
  const out: string[] = [];
  for (const x of t) if (typeof x === "string") out.push(x);
  else for (const y of x) out.push(y);
  return out;
};

/** The action's tokens: its type, and each object at its place. */
export function actTokens(a: Act | null, withObjects = true): string[] {
  if (a === null) return ["a:?"];
  const out = [`a:${a.type}`];
  if (withObjects) a.args.forEach((o, i) => out.push(`o:${a.type}:${i}:${o}`));
  return out;
}

/** The previous action against the candidate: its type and objects, the pair of types, shared objects. */
function prevTokens(prev: Act | null, a: Act | null): string[] {
  if (prev === null) return ["pv:none"];
  const shared = a === null ? 0 : a.args.filter((o) => prev.args.includes(o)).length;
  const same = a !== null && a.args.length > 0 && shared === a.args.length && new Set(prev.args).size === new Set(a.args).size;
  return [`pv:${prev.type}`, `pp:${prev.type}>${a?.type ?? "?"}`, `po:${shared}`, ...(same ? [`ps:${prev.type}>${a?.type ?? "?"}`] : []), ...prev.args.map((o, i) => `pa:${prev.type}:${i}:${o}`)];
}

/**
 * The surface of a step's characters, beyond its words: its length against its action type
 * (bins about 18% wide), the punctuation it uses, its last character, runs of spaces, the case
 * of its first letter.
 */
export function charTokens(text: string, type: string, tag = ""): string[] {
  const out = [`${tag}L:${type}:${text.length === 0 ? 0 : Math.round(Math.log(text.length) * 6)}`];
  const seen = new Set<string>();
  for (const ch of text) if (!/[\p{L}\p{N}\s]/u.test(ch) && !seen.has(ch)) (seen.add(ch), out.push(`${tag}p:${ch}`));
  out.push(`${tag}e:${text.length === 0 ? "" : text[text.length - 1]}`);
  if (/\s\s/.test(text)) out.push(`${tag}s2`);
  if (/^\s|\s$/.test(text)) out.push(`${tag}sx`);
  const first = /\p{L}/u.exec(text)?.[0];
  if (first !== undefined) out.push(`${tag}c:${first === first.toUpperCase() ? "A" : "a"}`);
  return out;
}

/** Words of a prompt, once per distinct prompt (a problem's rows share theirs). */
class PromptWords {
  private readonly cache = new Map<string, string[]>();
  get(text: string | null): readonly string[] {
    if (text === null) return [];
    let t = this.cache.get(text);
    if (t === undefined) {
      if (this.cache.size > 4096) this.cache.clear();
      t = [...new Set(words(text))].map((w) => `q:${w}`);
      this.cache.set(text, t);
    }
    return t;
  }
}

const prefixed = (tag: string, ws: readonly string[]): string[] => ws.map((w) => `${tag}${w}`);

function stepSpecs(prompts: PromptWords, feedback: boolean): Spec<StepUnit>[] {
  const action = { name: ACTION, tokens: (u: StepUnit): Tokens => actTokens(u.act) };
  const actionPrev = { name: ACTION_PREV, tokens: (u: StepUnit): Tokens => [...actTokens(u.act), ...prevTokens(u.prev, u.act)] };
  const specs: Spec<StepUnit>[] = [
    { name: "candidate words", gated: true, prior: action, extra: (u) => prefixed("w:", u.words), own: ["w:"] },
    { name: "candidate characters", gated: true, prior: action, extra: (u) => charTokens(u.text, u.act?.type ?? "?"), own: ["L:", "p:", "e:", "s2", "sx", "c:"] },
    // a dialogue's attempt is its history (a retry follows a rejected step): the attempt rule checks it
    { name: "candidate position", gated: !feedback, prior: action, extra: (u) => [`pos:${Math.min(u.position, 20)}`], own: ["pos:"] },
    // the step before says a lot that is true (an undo is backtracking): reported, the bar a model must beat
    { name: "previous step: action", gated: false, prior: action, extra: (u) => prevTokens(u.prev, u.act), own: ["pv:", "pp:", "po:", "ps:", "pa:"] },
    {
      name: "previous step: text",
      gated: true,
      prior: actionPrev,
      extra: (u) => (u.prevText === null ? [] : [...prefixed("pw:", words(u.prevText)), ...charTokens(u.prevText, u.prev?.type ?? "?", "pc")]),
      own: ["pw:", "pc"],
    },
    { name: "prompt", gated: true, prior: action, extra: (u) => [prompts.get(u.prompt)], own: ["q:"] },
  ];
  return specs;
}

function chainSpecs(prompts: PromptWords): Spec<ChainUnit>[] {
  const action = { name: "the chain's action types", tokens: (u: ChainUnit): Tokens => [...new Set(u.acts.map((a) => `a:${a?.type ?? "?"}`))] };
  return [
    { name: "chain words", gated: true, prior: action, extra: (u) => prefixed("w:", [...new Set(u.words)]), own: ["w:"] },
    { name: "chain characters", gated: true, prior: action, extra: (u) => [...new Set(u.texts.flatMap((t, i) => charTokens(t, u.acts[i]?.type ?? "?")))], own: ["L:", "p:", "e:", "s2", "sx", "c:"] },
    { name: "prompt", gated: true, prior: action, extra: (u) => [prompts.get(u.prompt)], own: ["q:"] },
  ];
}

function sideSpecs(): Spec<Side>[] {
  const action = { name: "the side's actions", tokens: (s: Side): Tokens => (s.acts.length === 1 ? actTokens(s.acts[0]!) : [...new Set(s.acts.map((a) => `a:${a?.type ?? "?"}`))]) };
  return [
    { name: "side words", gated: true, prior: action, extra: (s) => prefixed("w:", [...new Set(s.words)]), own: ["w:"] },
    { name: "side characters", gated: true, prior: action, extra: (s) => [...new Set(s.texts.flatMap((t, i) => charTokens(t, s.acts[i]?.type ?? "?")))], own: ["L:", "p:", "e:", "s2", "sx", "c:"] },
  ];
}

/** Models per prior and per probe, fed while the rows stream, scored at the end. */
class Models<U> {
  readonly priors = new Map<string, LogisticRegression>();
  readonly probes: LogisticRegression[];
  constructor(readonly specs: Spec<U>[]) {
    for (const s of specs) if (!this.priors.has(s.prior.name)) this.priors.set(s.prior.name, new LogisticRegression());
    this.probes = specs.map(() => new LogisticRegression());
  }
  learn(u: U, label: string): void {
    const seen = new Map<string, string[]>();
    for (const [name, m] of this.priors) {
      const spec = this.specs.find((s) => s.prior.name === name)!;
      const t = flat(spec.prior.tokens(u));
      seen.set(name, t);
      m.add(t, label);
    }
    this.specs.forEach((s, i) => this.probes[i]!.add([...seen.get(s.prior.name)!, ...flat(s.extra(u))], label));
  }
  train(): void {
    for (const m of this.priors.values()) m.train(1);
    for (const m of this.probes) m.train(1);
  }
  /** Each prior's and probe's class probabilities for `u`. */
  score(u: U): { priors: Map<string, Float64Array>; probes: Float64Array[] } {
    const priors = new Map<string, Float64Array>();
    const toks = new Map<string, string[]>();
    for (const [name, m] of this.priors) {
      const spec = this.specs.find((s) => s.prior.name === name)!;
      const t = flat(spec.prior.tokens(u));
      toks.set(name, t);
      priors.set(name, m.classProbabilities(t));
    }
    return { priors, probes: this.specs.map((s, i) => this.probes[i]!.classProbabilities([...toks.get(s.prior.name)!, ...flat(s.extra(u))])) };
  }
  top(i: number, label: string): string[] {
    const own = this.specs[i]!.own;
    return this.probes[i]!.topFeatures(label, 3, (t) => own.some((p) => t.startsWith(p))).filter((x) => x.weight > 0).map((x) => x.token);
  }
}

/** Probes over single units (step rows, dialogue turns, chains): one-vs-rest AUC gains per class. */
export class UnitProbes<U extends StepUnit | ChainUnit> {
  private readonly models: Models<U>;
  private readonly test: { u: U; label: string; problem: string }[] = [];
  constructor(kind: "step" | "chain", feedback = false) {
    const prompts = new PromptWords();
    this.models = new Models<U>((kind === "step" ? stepSpecs(prompts, feedback) : chainSpecs(prompts)) as unknown as Spec<U>[]);
  }
  learn(u: U, label: string): void {
    this.models.learn(u, label);
  }
  keep(u: U, label: string, problem: string): void {
    this.test.push({ u, label, problem });
  }
  /** Results per probe and class (chains: the class "error" only; classes with no test item are skipped). */
  results(): ProbeResult[] {
    const m = this.models;
    m.train();
    const n = this.test.length;
    const specs = m.specs;
    const anyPrior = m.priors.values().next().value as LogisticRegression | undefined;
    if (anyPrior === undefined || n === 0) return [];
    const labels = [...new Set(this.test.map((t) => t.label))].sort();
    const classes = labels.includes("error") ? ["error"] : labels;
    const scored = this.test.map((t) => m.score(t.u));
    const clusters = this.test.map((t) => t.problem);
    const out: ProbeResult[] = [];
    specs.forEach((s, i) => {
      const prior = m.priors.get(s.prior.name)!;
      const probe = m.probes[i]!;
      for (const c of classes) {
        const kp = prior.labelsLearnt.indexOf(c);
        const kq = probe.labelsLearnt.indexOf(c);
        if (kp < 0 || kq < 0) continue;
        const a = scored.map((x) => x.priors.get(s.prior.name)![kp]!);
        const b = scored.map((x) => x.probes[i]![kq]!);
        const g = apGain(a, b, this.test.map((t) => t.label === c), clusters);
        if (g.pos === 0 || g.pos === this.test.length) continue;
        out.push({ probe: s.name, group: c, measure: "ap", prior_reads: s.prior.name, n: g.pos, prior: g.prior, probe_value: g.probe, gain: g.gain, se: g.se, gated: s.gated, top: m.top(i, c) });
      }
    });
    return out;
  }
}

/** Probes over preference pairs: each model scores both sides; the gain is in picking the chosen one (chosen minus rejected). */
export class PairProbes {
  private readonly models = new Models<Side>(sideSpecs());
  private readonly test: { chosen: Side; rejected: Side; group: string; problem: string }[] = [];
  learn(u: PairUnit): void {
    this.models.learn(u.chosen, "chosen");
    this.models.learn(u.rejected, "rejected");
  }
  keep(u: PairUnit): void {
    this.test.push({ chosen: u.chosen, rejected: u.rejected, group: u.group, problem: u.problem });
  }
  results(): ProbeResult[] {
    const m = this.models;
    m.train();
    if (this.test.length === 0) return [];
    const chosenP = (model: LogisticRegression, p: Float64Array): number => {
      const k = model.labelsLearnt.indexOf("chosen");
      return k < 0 ? 0.5 : p[k]!;
    };
    const picks = this.test.map((t) => {
      const c = m.score(t.chosen);
      const r = m.score(t.rejected);
      const pick = (model: LogisticRegression, x: Float64Array, y: Float64Array): number => {
        const d = chosenP(model, x) - chosenP(model, y);
        return d > 0 ? 1 : d === 0 ? 0.5 : 0;
      };
      return {
        priors: new Map([...m.priors].map(([name, model]) => [name, pick(model, c.priors.get(name)!, r.priors.get(name)!)])),
        probes: m.specs.map((_, i) => pick(m.probes[i]!, c.probes[i]!, r.probes[i]!)),
      };
    });
    const groups = ["all", ...[...new Set(this.test.map((t) => t.group))].sort()];
    const out: ProbeResult[] = [];
    m.specs.forEach((s, i) => {
      for (const g of groups) {
        const idx = this.test.map((t, j) => (g === "all" || t.group === g ? j : -1)).filter((j) => j >= 0);
        if (idx.length === 0) continue;
        const prior = idx.reduce((a, j) => a + picks[j]!.priors.get(s.prior.name)!, 0) / idx.length;
        const d = clusteredMean(idx.map((j) => picks[j]!.probes[i]! - picks[j]!.priors.get(s.prior.name)!), idx.map((j) => this.test[j]!.problem));
        out.push({ probe: s.name, group: g, measure: "pick", prior_reads: s.prior.name, n: idx.length, prior, probe_value: prior + d.value, gain: d.value, se: d.se, gated: s.gated, top: m.top(i, "chosen") });
      }
    });
    return out;
  }
}
