/**
 * Probes: what a model could learn from a row beyond its action. Each probe adds one view of a
 * unit (the candidate's words or characters, its position, the step before it, the prompt) to a
 * prior that sees only the action, trains both on the train problems and measures on held-out
 * problems how much the view improves ranking: per class, one against the rest (a leak into a
 * class of 1% of the rows shows as plainly as one into the majority), or, for pairs, how much
 * more often it picks the chosen side. A gain past the limit and beyond noise fails the audit,
 * and the features that set the class apart in the probe's model are named.
 */
import type { Act } from "./actions.js";
import { mixedHash } from "../util/prng.js";
import { apGain, byId, clusteredMean, LogisticRegression, Vocabulary, words } from "./measures.js";
import { RawTokens } from "./raw.js";
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
  /** The probe's tokens that set the class apart most (its own view only; `LogisticRegression.topFeatures`). */
  top: string[];
}

/** Token ids of one view, appended to `out` in the order the view lists its tokens. */
type View<U> = (u: U, t: Interner, out: number[]) => void;

/** One view: the tokens it adds, and whether its gain is gated. */
interface Spec<U> {
  name: string;
  gated: boolean;
  /** The prior's name and tokens (the action, or the action and the previous action). */
  prior: { name: string; tokens: View<U> };
  extra: View<U>;
  /**
   * What the view's tokens depend on, when that repeats across units (a state's candidates share
   * their previous step; a step's text recurs in other states): its token ids are then computed
   * once per key (the same ids: a token's id never changes once given).
   */
  key?: (u: U) => string;
  /** Token prefixes of the view's own features (for `top`). */
  own: string[];
  /**
   * Also read units whose action is unknown (their text does not parse back: the prior's view is
   * empty). Only the raw form does: failing to parse is a form, which it names; another view
   * would gain on such units only by knowing they failed.
   */
  unknownAction?: boolean;
}

const ACTION = "the action (type and objects)";
const ACTION_PREV = "the action and the previous action";

/**
 * Interns a unit's tokens once for every model of an audit: words under a tag are looked up by
 * the word (no tagged string built per row), a prompt's words once per distinct prompt.
 */
class Interner {
  private readonly byTag = new Map<string, Map<string, number>>();
  private readonly prompts = new Map<string, Int32Array>();
  /** The raw probe's tokens (hashed tokens of the text as written, the id, the other fields). */
  readonly raw: RawTokens;
  constructor(readonly vocabulary: Vocabulary) {
    this.raw = new RawTokens(vocabulary);
  }
  plain(tokens: readonly string[], out: number[]): void {
    for (const t of tokens) out.push(this.vocabulary.id(t));
  }
  tagged(tag: string, ws: readonly string[], out: number[]): void {
    let m = this.byTag.get(tag);
    if (m === undefined) this.byTag.set(tag, (m = new Map()));
    for (const w of ws) {
      let id = m.get(w);
      if (id === undefined) m.set(w, (id = this.vocabulary.id(tag + w)));
      out.push(id);
    }
  }
  /** A prompt's distinct words (a problem's rows share their prompt). */
  prompt(text: string | null, out: number[]): void {
    if (text === null) return;
    let t = this.prompts.get(text);
    if (t === undefined) {
      if (this.prompts.size > 4096) this.prompts.clear();
      const ids: number[] = [];
      this.tagged("q:", [...new Set(words(text))], ids);
      this.prompts.set(text, (t = Int32Array.from(ids)));
    }
    for (let i = 0; i < t.length; i++) out.push(t[i]!);
  }
}

/**
 * The action's tokens: its type, and each object at its place. None for a step whose text does
 * not parse back (trl, openrlhf, ...): a prior that read "unparsed" would absorb a form that
 * breaks the parser (capitals, look-alikes), which is the probes' to find.
 */
export function actTokens(a: Act | null, withObjects = true): string[] {
  if (a === null) return [];
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

/** Letters, digits and white space: not punctuation (`\p{L}\p{N}\s`), ASCII without a regular expression. */
const WORDISH = /[\p{L}\p{N}\s]/u;
function wordish(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 32 || (c >= 9 && c <= 13);
  return WORDISH.test(ch);
}

/**
 * The surface of a step's characters, beyond its words: its length against its action type
 * (bins about 18% wide), the punctuation it uses, its last character, runs of spaces, the case
 * of its first letter.
 */
export function charTokens(text: string, type: string, tag = ""): string[] {
  const out = [`${tag}L:${type}:${text.length === 0 ? 0 : Math.round(Math.log(text.length) * 6)}`];
  let seen: Set<string> | null = null;
  for (const ch of text) {
    if (wordish(ch) || seen?.has(ch)) continue;
    (seen ??= new Set()).add(ch);
    out.push(`${tag}p:${ch}`);
  }
  out.push(`${tag}e:${text.length === 0 ? "" : text[text.length - 1]}`);
  if (/\s\s/.test(text)) out.push(`${tag}s2`);
  if (/^\s|\s$/.test(text)) out.push(`${tag}sx`);
  const first = /\p{L}/u.exec(text)?.[0];
  if (first !== undefined) out.push(`${tag}c:${first === first.toUpperCase() ? "A" : "a"}`);
  return out;
}

function stepSpecs(feedback: boolean): Spec<StepUnit>[] {
  const action = { name: ACTION, tokens: (u: StepUnit, t: Interner, out: number[]): void => t.plain(actTokens(u.act), out) };
  const actionPrev = {
    name: ACTION_PREV,
    tokens: (u: StepUnit, t: Interner, out: number[]): void => (t.plain(actTokens(u.act), out), t.plain(prevTokens(u.prev, u.act), out)),
  };
  const specs: Spec<StepUnit>[] = [
    // (a unit's words are words(u.text): units.ts)
    { name: "candidate words", gated: true, prior: action, extra: (u, t, out) => t.tagged("w:", u.words, out), key: (u) => u.text, own: ["w:"] },
    {
      name: "candidate characters",
      gated: true,
      prior: action,
      extra: (u, t, out) => t.plain(charTokens(u.text, u.act?.type ?? "?"), out),
      key: (u) => `${u.act?.type ?? "?"}\u0000${u.text}`,
      own: ["L:", "p:", "e:", "s2", "sx", "c:"],
    },
    // a dialogue's attempt is its history (a retry follows a rejected step): the attempt rule checks it
    { name: "candidate position", gated: !feedback, prior: action, extra: (u, t, out) => t.plain([`pos:${Math.min(u.position, 20)}`], out), own: ["pos:"] },
    // the step before says a lot that is true (an undo is backtracking): reported, the bar a model must beat
    { name: "previous step: action", gated: false, prior: action, extra: (u, t, out) => t.plain(prevTokens(u.prev, u.act), out), own: ["pv:", "pp:", "po:", "ps:", "pa:"] },
    {
      name: "previous step: text",
      gated: true,
      prior: actionPrev,
      extra: (u, t, out) => {
        if (u.prevText === null) return;
        t.tagged("pw:", words(u.prevText), out);
        t.plain(charTokens(u.prevText, u.prev?.type ?? "?", "pc"), out);
      },
      key: (u) => (u.prevText === null ? "" : `${u.prev?.type ?? "?"}\u0000${u.prevText}`),
      own: ["pw:", "pc"],
    },
    { name: "prompt", gated: true, prior: action, extra: (u, t, out) => t.prompt(u.prompt, out), own: ["q:"] },
    // one combined probe on the bytes (issue 55): the candidate as written (a turn: and the message before it), its id, its row's keys and other fields
    {
      name: "raw form",
      gated: true,
      unknownAction: true,
      prior: action,
      extra: (u, t, out) => (t.raw.texts(u.raw.texts, out), t.raw.context(u.raw.context, out), t.raw.meta(u.raw, out)),
      own: RAW_OWN,
    },
  ];
  return specs;
}

function chainSpecs(): Spec<ChainUnit>[] {
  const action = { name: "the chain's action types", tokens: (u: ChainUnit, t: Interner, out: number[]): void => t.plain([...new Set(u.acts.flatMap((a) => (a === null ? [] : [`a:${a.type}`])))], out) };
  return [
    { name: "chain words", gated: true, prior: action, extra: (u, t, out) => t.tagged("w:", [...new Set(u.words)], out), own: ["w:"] },
    { name: "chain characters", gated: true, prior: action, extra: (u, t, out) => t.plain([...new Set(u.texts.flatMap((x, i) => charTokens(x, u.acts[i]?.type ?? "?")))], out), own: ["L:", "p:", "e:", "s2", "sx", "c:"] },
    { name: "prompt", gated: true, prior: action, extra: (u, t, out) => t.prompt(u.prompt, out), own: ["q:"] },
    {
      name: "raw form",
      gated: true,
      unknownAction: true,
      prior: action,
      extra: (u, t, out) => (t.raw.texts(u.raw.texts, out), t.raw.context(u.raw.context, out), t.raw.meta(u.raw, out)),
      own: RAW_OWN,
    },
  ];
}

function sideSpecs(): Spec<Side>[] {
  const action = {
    name: "the side's actions",
    tokens: (s: Side, t: Interner, out: number[]): void => t.plain(s.acts.length === 1 ? actTokens(s.acts[0]!) : [...new Set(s.acts.flatMap((a) => (a === null ? [] : [`a:${a.type}`])))], out),
  };
  return [
    { name: "side words", gated: true, prior: action, extra: (s, t, out) => t.tagged("w:", [...new Set(s.words)], out), own: ["w:"] },
    { name: "side characters", gated: true, prior: action, extra: (s, t, out) => t.plain([...new Set(s.texts.flatMap((x, i) => charTokens(x, s.acts[i]?.type ?? "?")))], out), own: ["L:", "p:", "e:", "s2", "sx", "c:"] },
    // the side as written: its lines, blank ones included, and their form (issue 55)
    { name: "side raw form", gated: true, unknownAction: true, prior: action, extra: (s, t, out) => t.raw.side(s.raw, out), own: ["r:", "rc:"] },
  ];
}

/** Token prefixes of the raw probe's own features (src/audit/raw.ts). */
const RAW_OWN = ["r:", "rc:", "rq:", "qc:", "id", "k:", "f:"];

/** A unit's token ids: per prior (in `Models.priorNames` order), and per probe its view's own. */
interface UnitIds {
  priors: Int32Array[];
  extras: Int32Array[];
}

/** Keys a view cache holds before it starts again (bounded memory on any folder). */
const VIEW_CACHE = 8192;

/** Models per prior and per probe, fed while the rows stream, scored at the end. */
class Models<U> {
  readonly vocabulary = new Vocabulary();
  private readonly interner = new Interner(this.vocabulary);
  readonly priorNames: string[] = [];
  readonly priorModels: LogisticRegression[] = [];
  /** Per spec, the index of its prior. */
  private readonly priorOf: number[];
  readonly probes: LogisticRegression[];
  private readonly scratch: number[] = [];
  /** Per spec with a `key`, the token ids of the keys seen lately. */
  private readonly viewCache: Map<string, Int32Array>[];
  constructor(readonly specs: Spec<U>[]) {
    this.viewCache = specs.map(() => new Map());
    for (const s of specs) {
      if (!this.priorNames.includes(s.prior.name)) {
        this.priorNames.push(s.prior.name);
        this.priorModels.push(new LogisticRegression(this.vocabulary));
      }
    }
    this.priorOf = specs.map((s) => this.priorNames.indexOf(s.prior.name));
    this.probes = specs.map(() => new LogisticRegression(this.vocabulary));
  }
  /** The unit's tokens, interned once for every model (a test unit is kept as these alone). */
  ids(u: U): UnitIds {
    const out = this.scratch;
    const view = (f: View<U>): Int32Array => {
      out.length = 0;
      f(u, this.interner, out);
      return Int32Array.from(out);
    };
    return {
      priors: this.priorNames.map((_, p) => view(this.specs[this.priorOf.indexOf(p)]!.prior.tokens)),
      extras: this.specs.map((s, i) => {
        if (s.key === undefined) return view(s.extra);
        const cache = this.viewCache[i]!;
        const k = s.key(u);
        let x = cache.get(k);
        if (x === undefined) {
          if (cache.size >= VIEW_CACHE) cache.clear();
          cache.set(k, (x = view(s.extra)));
        }
        return x;
      }),
    };
  }
  /** Does spec i read the unit (its action known, or a spec that reads units of unknown action)? */
  reads(x: UnitIds, i: number): boolean {
    return this.specs[i]!.unknownAction === true || x.priors[this.priorOf[i]!]!.length > 0;
  }
  private joined(x: UnitIds, i: number): Int32Array {
    const a = x.priors[this.priorOf[i]!]!;
    const b = x.extras[i]!;
    const out = new Int32Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  }
  /** Keep a training unit; `key` places it in the training order (a hash of its id: the order rows come in does not matter). */
  learn(u: U, label: string, key: number): void {
    const x = this.ids(u);
    // a unit whose action is unknown (its text does not parse back) teaches the prior nothing:
    // an empty view would be a feature of its own (through the bias), the prior absorbing a form
    this.priorModels.forEach((m, p) => x.priors[p]!.length > 0 && m.addIds(x.priors[p]!, label, key));
    this.probes.forEach((m, i) => this.reads(x, i) && m.addIds(this.joined(x, i), label, key));
  }
  train(): void {
    for (const m of this.priorModels) m.train(1);
    for (const m of this.probes) m.train(1);
  }
  /** Spec i's prior model. */
  prior(i: number): LogisticRegression {
    return this.priorModels[this.priorOf[i]!]!;
  }
  /** Each prior's (in `priorNames` order) and probe's class probabilities for a unit. */
  score(x: UnitIds): { priors: Float64Array[]; probes: Float64Array[] } {
    return {
      priors: this.priorModels.map((m, p) => m.classProbabilitiesOf(x.priors[p]!)),
      probes: this.probes.map((m, i) => m.classProbabilitiesOf(this.joined(x, i))),
    };
  }
  top(i: number, label: string): string[] {
    const own = this.specs[i]!.own;
    return this.probes[i]!.topFeatures(label, 3, (t) => own.some((p) => t.startsWith(p))).map((x) => x.token);
  }
}

/** Probes over single units (step rows, dialogue turns, chains): one-vs-rest AUC gains per class. */
export class UnitProbes<U extends StepUnit | ChainUnit> {
  private readonly models: Models<U>;
  private readonly test: { x: UnitIds; label: string; problem: string; id: string }[] = [];
  /**
   * `gatedOnly`: only the probes a check reads (the dataset card's audit: the reported-only
   * ones change no verdict).
   */
  constructor(kind: "step" | "chain", feedback = false, gatedOnly = false) {
    const specs = (kind === "step" ? stepSpecs(feedback) : chainSpecs()) as unknown as Spec<U>[];
    this.models = new Models<U>(gatedOnly ? specs.filter((s) => s.gated) : specs);
  }
  /** `key`: a hash of the unit's id (see `Models.learn`). */
  learn(u: U, label: string, key: number): void {
    this.models.learn(u, label, key);
  }
  keep(u: U, label: string, problem: string): void {
    this.test.push({ x: this.models.ids(u), label, problem, id: u.id });
  }
  /**
   * Results per probe and class (chains: the class "error" only; classes with no test item are
   * skipped). With `seAbove`, a gain at or below it gets no bootstrap (se NaN): a check passes
   * such a gain whatever its error, so the verdicts are those of the full computation.
   */
  results(seAbove?: number): ProbeResult[] {
    const m = this.models;
    m.train();
    byId(this.test);
    const n = this.test.length;
    const specs = m.specs;
    if (m.priorModels.length === 0 || n === 0) return [];
    const labels = [...new Set(this.test.map((t) => t.label))].sort();
    const classes = labels.includes("error") ? ["error"] : labels;
    const scored = this.test.map((t) => m.score(t.x));
    const clusters = this.test.map((t) => t.problem);
    const out: ProbeResult[] = [];
    specs.forEach((s, i) => {
      const prior = m.prior(i);
      const p = m.priorNames.indexOf(s.prior.name);
      const probe = m.probes[i]!;
      const items = this.test.flatMap((t, j) => (m.reads(t.x, i) ? [j] : []));
      const cl = items.map((j) => clusters[j]!);
      for (const c of classes) {
        const kp = prior.labelsLearnt.indexOf(c);
        const kq = probe.labelsLearnt.indexOf(c);
        if (kp < 0 || kq < 0) continue;
        const a = items.map((j) => scored[j]!.priors[p]![kp]!);
        const b = items.map((j) => scored[j]!.probes[i]![kq]!);
        const positive = items.map((j) => this.test[j]!.label === c);
        let g = apGain(a, b, positive, cl, seAbove === undefined ? 200 : 0);
        if (seAbove !== undefined && g.gain > seAbove) g = apGain(a, b, positive, cl);
        if (g.pos === 0 || g.pos === items.length) continue;
        out.push({ probe: s.name, group: c, measure: "ap", prior_reads: s.prior.name, n: g.pos, prior: g.prior, probe_value: g.probe, gain: g.gain, se: g.se, gated: s.gated, top: m.top(i, c) });
      }
    });
    return out;
  }
}

/** Probes over preference pairs: each model scores both sides; the gain is in picking the chosen one (chosen minus rejected). */
export class PairProbes {
  private readonly models = new Models<Side>(sideSpecs());
  private readonly test: { chosen: UnitIds; rejected: UnitIds; group: string; problem: string; id: string }[] = [];
  learn(u: PairUnit): void {
    this.models.learn(u.chosen, "chosen", mixedHash(`${u.id}\u0000chosen`));
    this.models.learn(u.rejected, "rejected", mixedHash(`${u.id}\u0000rejected`));
  }
  keep(u: PairUnit): void {
    this.test.push({ chosen: this.models.ids(u.chosen), rejected: this.models.ids(u.rejected), group: u.group, problem: u.problem, id: u.id });
  }
  results(): ProbeResult[] {
    const m = this.models;
    m.train();
    byId(this.test);
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
        priors: m.priorModels.map((model, p) => pick(model, c.priors[p]!, r.priors[p]!)),
        probes: m.specs.map((_, i) => pick(m.probes[i]!, c.probes[i]!, r.probes[i]!)),
      };
    });
    const groups = ["all", ...[...new Set(this.test.map((t) => t.group))].sort()];
    const out: ProbeResult[] = [];
    m.specs.forEach((s, i) => {
      for (const g of groups) {
        // a view that needs the action reads pairs whose both sides parse back
        const idx = this.test.map((t, j) => ((g === "all" || t.group === g) && m.reads(t.chosen, i) && m.reads(t.rejected, i) ? j : -1)).filter((j) => j >= 0);
        if (idx.length === 0) continue;
        const p = m.priorNames.indexOf(s.prior.name);
        const prior = idx.reduce((a, j) => a + picks[j]!.priors[p]!, 0) / idx.length;
        const d = clusteredMean(idx.map((j) => picks[j]!.probes[i]! - picks[j]!.priors[p]!), idx.map((j) => this.test[j]!.problem));
        // what marks the chosen side, then what marks the rejected one (a blank line in rejected plans)
        out.push({ probe: s.name, group: g, measure: "pick", prior_reads: s.prior.name, n: idx.length, prior, probe_value: prior + d.value, gain: d.value, se: d.se, gated: s.gated, top: [...m.top(i, "chosen"), ...m.top(i, "rejected")] });
      }
    });
    return out;
  }
}
