/**
 * Consumer contracts: every format is run through the lines of the trainer it names that touch
 * the data (tests/trainer-replays.ts), on output written by the CLI. PDDL2PRM_CLI=path/to/main.js
 * replays them against another build (e.g. an older layout, to see them fail).
 */
import { execFile, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FORMAT_CONSUMERS, FORMATS } from "../src/dataset/formats.js";
import {
  arrowTypesOfLine,
  BOS_ID,
  convertTokenToId,
  docsMathShepherdToStepwise,
  paperBuildPrompt,
  paperMarkerPositions,
  enc,
  hfLoadSplits,
  isConversational,
  openRlhfItem,
  PyError,
  ROOT,
  TOKENIZER,
  trlDpoTokenize,
  trlMathShepherd,
  trlPrmTokenizeRow,
  trlRewardTokenize,
  trlSftTokenize,
  unify,
  type ArrowType,
} from "./trainer-replays.js";
import { fileTempDir } from "./temp-dir.js";

const CLI = process.env["PDDL2PRM_CLI"] ?? join(ROOT, "dist", "src", "cli", "main.js");
const tmp = fileTempDir("pddl2prm-contracts-");
// Shipped problems with plans of 14, 10, 10 and 8 steps: long enough for rows over 1024 tokens.
const PROBLEMS = join(tmp, "problems");
const PICK: [string, string[]][] = [
  ["blocksworld", ["p0001", "p0003"]],
  ["ferry", ["p0002", "p0003"]],
];
for (const [d, ps] of PICK) {
  mkdirSync(join(PROBLEMS, d), { recursive: true });
  for (const p of ps) copyFileSync(join(ROOT, "problems", d, `${p}.pddl`), join(PROBLEMS, d, `${p}.pddl`));
}
const BASE = ["generate", "--domain", "blocksworld,ferry", "--problems", PROBLEMS, "--seed", "3", "--workers", "1"];
type Row = Record<string, unknown>;

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd: tmp });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `cli` without blocking the test worker's event loop (the runs of beforeAll take a while). */
function cliAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { encoding: "utf8", cwd: tmp, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Lines of every shard of a dataset folder, in file order. */
function lines(out: string): string[] {
  const dir = join(out, "data");
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()
    .flatMap((n) => readFileSync(join(dir, n), "utf8").split("\n").filter((l) => l.length > 0));
}
const rows = (out: string): Row[] => lines(out).map((l) => JSON.parse(l) as Row);

const failed: Record<string, string> = {};

/** Two ranks of a two-machine run (several shards per split); a failed run fails only the tests that read it. */
async function twoRanks(name: string, extra: string[]): Promise<void> {
  const dir = join(tmp, name);
  for (const rank of ["0", "1"]) {
    const r = await cliAsync([...BASE, ...extra, "--world", "2", "--rank", rank, "--out", dir, "--quiet"]);
    if (r.code !== 0) {
      failed[name] = r.stderr;
      return;
    }
  }
  out[name] = dir;
}

/** The output folder of a run, or the run's error. */
function need(runs: Record<string, string>, name: string): string {
  const dir = runs[name];
  if (dir === undefined) throw new Error(`generate (${name}) failed: ${failed[name] ?? failed[`${name}-limited`] ?? "not run"}`);
  return dir;
}

const out: Record<string, string> = {};
const limited: Record<string, string> = {};
let limitedSummary = "";
const LIMIT = 1024;
/** A dialogue holds a whole episode: feedback rows get a longer limit (at 1024 tokens none is left). */
const limitOf = (f: string): number => (f === "feedback" ? 4096 : LIMIT);
const LIMITED = ["native", "trl", "openrlhf", "math-shepherd", "pairs", "trajectories", "feedback", "verifier"] as const;
/** Runs besides one per format: the conversational and Agent-RRM layouts. */
const VARIANTS = ["pairs-chat", "trajectories-chat", "verifier-chat", "verifier-rrm", "feedback-dialogue"];

beforeAll(async () => {
  for (const f of FORMATS) await twoRanks(f, ["--format", f]);
  await twoRanks("pairs-chat", ["--format", "pairs", "--chat"]);
  await twoRanks("trajectories-chat", ["--format", "trajectories", "--chat"]);
  await twoRanks("verifier-chat", ["--format", "verifier", "--chat"]);
  await twoRanks("verifier-rrm", ["--format", "verifier", "--style", "rrm"]);
  await twoRanks("feedback-dialogue", ["--format", "feedback", "--style", "dialogue"]);
  for (const f of LIMITED) {
    const dir = join(tmp, `${f}-limited`);
    const r = await cliAsync([...BASE, "--format", f, "--tokenizer", TOKENIZER, "--max-length", String(limitOf(f)), "--out", dir]);
    if (r.code !== 0) {
      failed[`${f}-limited`] = r.stderr;
      continue;
    }
    if (f === "trl") limitedSummary = r.stdout;
    limited[f] = dir;
  }
}, 300_000);

describe("TRL PRMTrainer (trl)", () => {
  it("reads every label right: int() of a boolean, steps on one line, one label per step", () => {
    const rs = rows(need(out, "trl"));
    expect(rs.length).toBeGreaterThan(100);
    for (const r of rs) {
      const steps = r["completions"] as string[];
      expect(steps.every((s) => !s.includes("\n")), String(r["id"])).toBe(true);
      expect((r["labels"] as unknown[]).every((l) => typeof l === "boolean")).toBe(true);
      const t = trlPrmTokenizeRow(r, "\n", null);
      const got = t.labels.filter((l) => l !== -100);
      expect(got, String(r["id"])).toEqual((r["rewards"] as number[]).map((x) => (x >= 0.75 ? 1 : 0)));
    }
  });

  it("without --max-length, some rows lose the candidate's label at TRL's default max_length 1024", () => {
    const cut = rows(need(out, "trl")).filter((r) => trlPrmTokenizeRow(r).labels.filter((l) => l !== -100).length < (r["labels"] as unknown[]).length);
    expect(cut.length).toBeGreaterThan(0);
  });
});

describe("native rows are graded rewards, not a TRL layout", () => {
  it("TRL's int() would turn every 0.75 (a good step at the default threshold) into 0: the docs do not claim TRL", () => {
    const rs = rows(need(out, "native")).filter((r) => (r["labels"] as number[]).includes(0.75));
    expect(rs.length).toBeGreaterThan(0);
    for (const r of rs) expect(trlPrmTokenizeRow(r, "\n", null).labels.filter((l) => l !== -100)).toContain(0);
    expect(FORMAT_CONSUMERS.native).toMatch(/NOT for TRL/);
  });
});

describe("Math-Shepherd layout through TRL's conversion (examples/datasets/math_shepherd.py)", () => {
  it("converts every row into exactly the trl row of the same id", () => {
    const trl = new Map(rows(need(out, "trl")).map((r) => [r["id"], r]));
    const rs = rows(need(out, "math-shepherd"));
    expect(rs.length).toBe(trl.size);
    for (const r of rs) {
      const c = trlMathShepherd(r);
      const t = trl.get(r["id"])!;
      expect(c.prompt).toBe((t["prompt"] as string).trim());
      expect(c.completions).toEqual(t["completions"]);
      expect(c.labels).toEqual(t["labels"]);
    }
  });

  it("the docs' own conversion (no file from outside) gives exactly the trl rows, the prompt's newline kept", () => {
    const trl = new Map(rows(need(out, "trl")).map((r) => [r["id"], r]));
    const docs = readFileSync(join(ROOT, "docs", "training.md"), "utf8");
    // the function the replay mirrors is the one the docs show
    expect(docs).toContain('while n < len(lines) and lines[-1 - n].endswith(" ки"):');
    for (const r of rows(need(out, "math-shepherd"))) {
      const c = docsMathShepherdToStepwise(r);
      const t = trl.get(r["id"])!;
      expect({ prompt: c.prompt, completions: c.completions, labels: c.labels }).toEqual({ prompt: t["prompt"], completions: t["completions"], labels: t["labels"] });
    }
  });
});

describe("the paper's released PRMs (paper-prm: their model cards' build_prompt and marker reading)", () => {
  it("text is build_prompt(problem, steps); one marker position per step, each with its reward; the native rows' labels", () => {
    const native = new Map(rows(need(out, "native")).map((r) => [r["id"], r]));
    const rs = rows(need(out, "paper-prm"));
    expect(rs.length).toBe(native.size);
    for (const r of rs) {
      const steps = r["steps"] as string[];
      expect(r["text"]).toBe(paperBuildPrompt(r["problem"] as string, steps));
      expect(steps.every((s) => !/^Step \d+:/.test(s) && !s.includes("\n"))).toBe(true);
      expect(paperMarkerPositions(r["text"] as string)).toHaveLength(steps.length);
      const n = native.get(r["id"])!;
      expect(r["rewards"]).toEqual(n["labels"]);
      expect(r["problem"]).toBe(n["prompt"]);
      expect(steps.length).toBe((n["completions"] as string[]).length);
    }
  });
});

describe("OpenRLHF 0.5.6-0.9.5 train_prm (openrlhf)", () => {
  it("puts each step's reward token (+ good, - bad) on that step's placeholder", () => {
    const plus = convertTokenToId("+");
    const minus = convertTokenToId("-");
    for (const r of rows(need(out, "openrlhf"))) {
      const item = openRlhfItem(r, Number.MAX_SAFE_INTEGER);
      const got = item.labels.filter((l) => l !== -100);
      expect(got, String(r["id"])).toEqual((r["rewards"] as number[]).map((x) => (x >= 0.75 ? plus : minus)));
    }
  });

  it("refuses the layouts it cannot read: float labels, a +/- string", () => {
    const r = rows(need(out, "openrlhf"))[0]!;
    expect(() => openRlhfItem({ ...r, value: r["rewards"] })).toThrow(PyError);
    const ms = rows(need(out, "math-shepherd"))[0]!;
    expect(() => openRlhfItem(ms, 2048, { input: "input", label: "label" })).toThrow(/should be a list/);
  });
});

describe("TRL RewardTrainer and DPOTrainer (pairs, trajectories)", () => {
  for (const name of ["pairs", "trajectories", "pairs-chat", "trajectories-chat"]) {
    it(`${name}: every row tokenizes as prompt + chosen / prompt + rejected, and reads as one chain of steps`, () => {
      const rs = rows(need(out, name));
      expect(rs.length).toBeGreaterThan(10);
      for (const r of rs) {
        const rw = trlRewardTokenize(r);
        const dpo = trlDpoTokenize(r);
        expect(isConversational(r)).toBe(name.endsWith("-chat"));
        expect(typeof r["margin"]).toBe("number");
        expect(r["margin"] as number).toBeGreaterThan(0);
        expect(dpo.prefixMismatch, String(r["id"])).toBe(false);
        expect(dpo.chosen_ids.length).toBeGreaterThan(0);
        expect(rw.chosen_ids[0]).toBe(BOS_ID);
        if (!name.endsWith("-chat")) {
          const prompt = r["prompt"] as string;
          expect(prompt.endsWith("\n")).toBe(true);
          expect((r["chosen"] as string).startsWith("Step ")).toBe(true);
          if (name === "pairs") {
            // the prefix steps are in the prompt: the chosen step follows the last of them
            const k = (r["meta"] as { state_index: number }).state_index;
            expect(prompt).toContain(k > 0 ? `\nStep ${k}: ` : "");
            expect(r["chosen"] as string).toMatch(new RegExp(`^Step ${k + 1}: `));
          }
        }
      }
    });
  }
});

const REWARD: Record<string, number> = { "non-executable": 0, "dead-end": 0.25, backtracking: 0.5, suboptimal: 0.75, optimal: 1 };

describe("TRL SFTTrainer (feedback, default: conversational prompt-completion, a row per good turn)", () => {
  it("loss falls on the completion only, an optimal step; mistakes are in prompts, every good turn is trained once", () => {
    const rs = rows(need(out, "feedback"));
    expect(new Set(rs.map((r) => r["id"])).size).toBe(rs.length);
    const byDialogue = new Map<string, Row[]>();
    for (const r of rs) {
      expect(isConversational(r)).toBe(true);
      expect(Object.keys(r)).toEqual(["id", "domain", "problem", "split", "prompt", "completion", "meta"]);
      const t = trlSftTokenize(r);
      expect(t.prefixMismatch, String(r["id"])).toBe(false);
      const completion = r["completion"] as { role: string; content: string; reward: number }[];
      expect(completion).toHaveLength(1);
      expect(completion[0]!.role).toBe("assistant");
      expect(completion[0]!.reward).toBe(1);
      // the loss tokens: exactly the completion's turn (its content and the chat framing)
      const lossTokens = t.completion_mask!.filter((m) => m === 1).length;
      expect(lossTokens).toBeGreaterThanOrEqual(enc(completion[0]!.content).length);
      expect(lossTokens).toBeLessThan(enc(completion[0]!.content).length + 12);
      const meta = r["meta"] as { categories: string[]; turn: number; recovery: boolean };
      expect(meta.categories[meta.turn]).toBe("optimal");
      const prompt = r["prompt"] as { role: string; content: string; reward?: number }[];
      const before = prompt.filter((m) => m.role === "assistant");
      expect(before.length).toBe(meta.turn);
      expect(before.map((m) => m.reward)).toEqual(meta.categories.slice(0, meta.turn).map((c) => REWARD[c]));
      expect(meta.recovery).toBe(meta.turn > 0 && meta.categories[meta.turn - 1] !== "optimal");
      const key = String(r["id"]).replace(/\/t\d+$/, "");
      byDialogue.set(key, [...(byDialogue.get(key) ?? []), r]);
    }
    let mistakesInPrompts = 0;
    for (const [key, turns] of byDialogue) {
      const meta = turns[0]!["meta"] as { categories: string[] };
      // every optimal turn of the episode is one row's completion, in order
      expect(turns.map((r) => (r["meta"] as { turn: number }).turn), key).toEqual(meta.categories.flatMap((c, i) => (c === "optimal" ? [i] : [])));
      // each prompt extends the one before it by that row's completion and what followed it
      for (let k = 1; k < turns.length; k++) {
        const prev = [...(turns[k - 1]!["prompt"] as unknown[]), ...(turns[k - 1]!["completion"] as unknown[])];
        expect((turns[k]!["prompt"] as unknown[]).slice(0, prev.length)).toEqual(prev);
      }
      mistakesInPrompts += (turns.at(-1)!["prompt"] as { role: string; reward?: number }[]).filter((m) => m.role === "assistant" && m.reward! < 1).length;
    }
    expect(mistakesInPrompts).toBeGreaterThan(0);
  });
});

describe("TRL SFTTrainer (feedback --style dialogue: conversational language modelling)", () => {
  it("every dialogue tokenizes with assistant_only_loss; assistant turns are steps with their reward, the others critiques", () => {
    const rs = rows(need(out, "feedback-dialogue"));
    expect(rs.length).toBeGreaterThan(2);
    expect(new Set(rs.map((r) => r["id"])).size).toBe(rs.length);
    const words = new Set<string>(["non-executable", "dead-end", "backtracking", "suboptimal", "optimal"]);
    for (const r of rs) {
      expect(isConversational(r)).toBe(true);
      const t = trlSftTokenize(r, true);
      expect(t.assistant_masks!.filter((m) => m === 1).length).toBeGreaterThan(0);
      const msgs = r["messages"] as { role: string; content: string; reward?: number }[];
      const meta = r["meta"] as { categories: string[]; mistakes: string[] };
      const turns = msgs.filter((m) => m.role === "assistant");
      expect(turns.map((m) => m.reward)).toEqual(meta.categories.map((c) => REWARD[c]));
      expect(turns.every((m) => /^Step \d+: /.test(m.content))).toBe(true);
      for (const m of msgs.slice(1).filter((x) => x.role === "user")) {
        expect(m.content.length).toBeGreaterThan(40);
        expect(words.has(m.content.trim().toLowerCase().replace(/[.!]$/, ""))).toBe(false);
      }
      // a dialogue may have no mistake (every turn is one with the same probability)
      expect(meta.mistakes).toEqual(meta.categories.filter((c) => c !== "optimal"));
    }
    expect(rs.filter((r) => (r["meta"] as { mistakes: string[] }).mistakes.length > 0).length).toBeGreaterThan(rs.length / 2);
  });
});

describe("TRL SFTTrainer (verifier: prompt-completion)", () => {
  for (const name of ["verifier", "verifier-rrm", "verifier-chat"]) {
    it(`${name}: the prompt is a prefix of prompt + completion, the completion is what is trained on`, () => {
      const rs = rows(need(out, name));
      expect(rs.length).toBeGreaterThan(2);
      for (const r of rs) {
        expect(isConversational(r)).toBe(name === "verifier-chat");
        const t = trlSftTokenize(r);
        expect(t.prefixMismatch, String(r["id"])).toBe(false);
        expect(t.completion_mask!.filter((m) => m === 1).length).toBeGreaterThan(5);
        const completion = name === "verifier-chat" ? (r["completion"] as { content: string }[])[0]!.content : (r["completion"] as string);
        if (name === "verifier-rrm") expect(completion).toMatch(/^<think>\n[\s\S]+\n<\/think>\n<critique>[^\n]+<\/critique>\n<score>[01]\.\d\d<\/score>$/);
        else expect(completion).toMatch(/\nVerdict: [^\n]+$/);
      }
      // one correct and one wrong chain per problem (their lengths drawn alike: issue 55, tests/products)
      const byProblem = new Map<string, Row[]>();
      for (const r of rs) byProblem.set(`${r["domain"]}/${r["problem"]}`, [...(byProblem.get(`${r["domain"]}/${r["problem"]}`) ?? []), r]);
      for (const pair of byProblem.values()) expect(pair.map((r) => (r["label"] as number) >= 0).sort()).toEqual([false, true]);
    });
  }
});

/** `dataset_info.features` of a dataset card, as Arrow types. */
function cardTypes(out: string): Record<string, ArrowType> {
  const card = readFileSync(join(out, "README.md"), "utf8");
  const block = card.slice(card.indexOf("  features:\n") + "  features:\n".length, card.indexOf("  splits:"));
  const ls = block.split("\n").filter((l) => l.trim().length > 0);
  let i = 0;
  const fields = (indent: number): Record<string, ArrowType> => {
    const r: Record<string, ArrowType> = {};
    while (i < ls.length && ls[i]!.startsWith(`${" ".repeat(indent)}- name: `)) {
      const name = ls[i++]!.trim().slice("- name: ".length);
      const [kind, type] = ls[i++]!.trim().split(/:\s*/);
      const prim = (t: string): ArrowType => ({ string: "string", int64: "int64", float64: "double", bool: "bool" })[t] as ArrowType;
      if (kind === "dtype") r[name] = prim(type!);
      else if (kind === "sequence") r[name] = { list: prim(type!) };
      else if (kind === "struct") r[name] = { struct: fields(indent + 2) };
      else if (kind === "list") r[name] = { list: { struct: fields(indent + 2) } };
      else throw new Error(`card: unknown feature kind ${kind}`);
    }
    return r;
  };
  return fields(2);
}

/** Does an inferred type load under a declared feature? (null anywhere; int64 into float64) */
function fitsFeature(t: ArrowType, f: ArrowType, path: string): void {
  if (t === "null") return;
  if (t === "int64" && f === "double") return;
  if (typeof t === "string" || typeof f === "string") {
    if (t !== f) throw new Error(`${path}: rows hold ${JSON.stringify(t)}, the card declares ${JSON.stringify(f)}`);
    return;
  }
  if ("list" in t && "list" in f) return fitsFeature(t.list, f.list, `${path}[]`);
  if ("struct" in t && "struct" in f) {
    for (const k of Object.keys(t.struct)) {
      if (!(k in f.struct)) throw new Error(`${path}.${k}: not declared in the card`);
      fitsFeature(t.struct[k]!, f.struct[k]!, `${path}.${k}`);
    }
    return;
  }
  throw new Error(`${path}: rows hold ${JSON.stringify(t)}, the card declares ${JSON.stringify(f)}`);
}

describe("Hugging Face datasets (pyarrow JSON inference)", () => {
  it("every format: one type per column across all rows of all shards, and the card's features match", () => {
    const names = [...FORMATS, ...VARIANTS];
    const dirs: [string, string][] = [...names.map((n): [string, string] => [n, need(out, n)]), ...LIMITED.map((f): [string, string] => [`${f}-limited`, need(limited, f)])];
    for (const [name, dir] of dirs) {
      const ls = lines(dir);
      expect(ls.length, name).toBeGreaterThan(0);
      expect(readdirSync(join(dir, "data")).filter((n) => n.endsWith(".jsonl")).length).toBeGreaterThan(0);
      let schema: ArrowType = { struct: {} };
      for (const l of ls) schema = unify(schema, { struct: arrowTypesOfLine(l) }, name);
      const declared = cardTypes(dir);
      const inferred = (schema as { struct: Record<string, ArrowType> }).struct;
      expect(Object.keys(inferred).sort(), name).toEqual(Object.keys(declared).sort());
      fitsFeature(schema, { struct: declared }, name);
    }
  });
});

describe("Hugging Face datasets load_dataset(DIR)", () => {
  it("every format's folder loads: each split the card lists has rows, in the card's numbers", () => {
    const dirs: [string, string][] = [...[...FORMATS, ...VARIANTS].map((n): [string, string] => [n, need(out, n)]), ...LIMITED.map((f): [string, string] => [`${f}-limited`, need(limited, f)])];
    for (const [name, dir] of dirs) {
      const bySplit = hfLoadSplits(dir);
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { counts: { by_split: Record<string, number> } };
      expect(bySplit, name).toEqual(Object.fromEntries(Object.entries(manifest.counts.by_split).filter(([, n]) => n > 0)));
      expect(Object.values(bySplit).reduce((a, n) => a + n, 0), name).toBe(lines(dir).length);
    }
  });

  it("a 2-problem run, and one whose --max-length empties splits: no empty split listed, no empty shard written", async () => {
    const small = join(tmp, "two-problems");
    expect((await cliAsync(["generate", "--domain", "blocksworld", "--count", "2", "--seed", "1", "--workers", "1", "--out", small, "--quiet"])).code).toBe(0);
    const tiny = join(tmp, "emptied");
    const r = await cliAsync([...BASE, "--format", "verifier", "--tokenizer", TOKENIZER, "--max-length", "1024", "--out", tiny, "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    for (const dir of [small, tiny]) {
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { counts: { by_split: Record<string, number> } };
      expect(Object.values(manifest.counts.by_split).some((n) => n === 0), dir).toBe(true);
      expect(Object.keys(hfLoadSplits(dir)).length).toBeGreaterThan(0);
      for (const n of readdirSync(join(dir, "data"))) expect(readFileSync(join(dir, "data", n)).length, n).toBeGreaterThan(0);
    }
  }, 120_000);

  it("the replay fails as datasets does on a card that lists an empty split", () => {
    const dir = join(tmp, "old-card");
    mkdirSync(join(dir, "data"), { recursive: true });
    writeFileSync(join(dir, "data", "train-00000-of-00001.jsonl"), '{"a":1}\n');
    writeFileSync(join(dir, "data", "validation-00000-of-00001.jsonl"), "");
    const card = (splits: string[], sizes: number[]) =>
      `---\nconfigs:\n- config_name: default\n  data_files:\n${splits.map((s) => `    - split: ${s}\n      path: data/${s}-*.jsonl`).join("\n")}\ndataset_info:\n  features:\n  - name: a\n    dtype: int64\n  splits:\n${splits.map((s, i) => `  - name: ${s}\n    num_examples: ${sizes[i]}`).join("\n")}\n---\n`;
    writeFileSync(join(dir, "README.md"), card(["train", "validation"], [1, 0]));
    expect(() => hfLoadSplits(dir)).toThrow(/Instruction "validation" corresponds to no data/);
    writeFileSync(join(dir, "README.md"), card(["train"], [2]));
    expect(() => hfLoadSplits(dir)).toThrow(/NonMatchingSplitsSizesError/);
    writeFileSync(join(dir, "README.md"), card(["train"], [1]));
    expect(hfLoadSplits(dir)).toEqual({ train: 1 });
  });
});

describe(`--tokenizer and --max-length ${LIMIT}`, () => {
  it("no row loses its last label in its trainer", () => {
    for (const r of rows(need(limited, "trl"))) {
      expect(trlPrmTokenizeRow(r, "\n", LIMIT).labels.filter((l) => l !== -100).length).toBe((r["labels"] as unknown[]).length);
    }
    for (const r of rows(need(limited, "native"))) {
      expect(trlPrmTokenizeRow(r, "\n", LIMIT).labels.filter((l) => l !== -100).length).toBe((r["labels"] as unknown[]).length);
    }
    for (const r of rows(need(limited, "math-shepherd"))) {
      const c = trlMathShepherd(r);
      expect(trlPrmTokenizeRow(c, "\n", LIMIT).labels.filter((l) => l !== -100).length).toBe(c.labels.length);
    }
    for (const r of rows(need(limited, "openrlhf"))) {
      expect(openRlhfItem(r, LIMIT).labels.filter((l) => l !== -100).length).toBe((r["value"] as unknown[]).length);
    }
    for (const f of ["feedback", "verifier"]) {
      // SFTTrainer cuts at max_length: the last assistant turn (or the verdict) would be lost
      for (const r of rows(need(limited, f))) expect(trlSftTokenize(r).input_ids.length).toBeLessThanOrEqual(limitOf(f));
    }
    for (const f of ["pairs", "trajectories"]) {
      for (const r of rows(need(limited, f))) {
        const rw = trlRewardTokenize(r);
        // the reward trainer filters out longer rows, the DPO trainer cuts them: neither happens
        expect(Math.max(rw.chosen_ids.length, rw.rejected_ids.length)).toBeLessThanOrEqual(LIMIT);
        const d = trlDpoTokenize(r);
        expect(d.prompt_ids.length + Math.max(d.chosen_ids.length, d.rejected_ids.length)).toBeLessThanOrEqual(LIMIT);
      }
    }
  });

  it("counts the dropped rows in the manifest and the summary, and drops only rows that are too long", () => {
    for (const f of LIMITED) {
      const m = JSON.parse(readFileSync(join(need(limited, f), "manifest.json"), "utf8")) as { rows: number; dropped: { rows: number; max_length: number; counted_with: string } };
      expect(m.dropped.max_length).toBe(limitOf(f));
      expect(m.dropped.counted_with).toBe("tokenizer.json");
      expect(m.rows + m.dropped.rows, f).toBe(lines(need(out, f)).length);
    }
    const trl = JSON.parse(readFileSync(join(need(limited, "trl"), "manifest.json"), "utf8")) as { dropped: { rows: number } };
    expect(trl.dropped.rows).toBeGreaterThan(0);
    expect(limitedSummary).toContain(`dropped ${trl.dropped.rows} rows longer than ${LIMIT} tokens`);
    // the rows kept are exactly the rows of the unlimited run that fit
    const fit = rows(need(out, "trl")).filter((r) => trlPrmTokenizeRow(r, "\n", null).input_ids.length <= LIMIT).map((r) => r["id"]);
    expect(rows(need(limited, "trl")).map((r) => r["id"]).sort()).toEqual(fit.sort());
  });

  it("the fixture tokenizer is a real byte-level BPE (the placeholder one token, a blank line one token)", () => {
    expect(enc("ки")).toHaveLength(1);
    expect(enc(" ки")).toContain(enc("ки")[0]);
    expect(enc("\n\n")).toHaveLength(1);
  });
});

describe("length and layout flags: bad input", () => {
  it("exit 2 for bad usage, 1 for a bad tokenizer file, one line naming the flag, no output left", async () => {
    const dir = join(tmp, "bad");
    const cases: [string[], number, RegExp][] = [
      [["--tokenizer", TOKENIZER], 2, /--tokenizer .*--max-length/],
      [["--format", "trl", "--chat"], 2, /--chat applies to --format pairs, trajectories, verifier and rl only/],
      [["--format", "pairs", "--style", "rrm"], 2, /--style applies to --format verifier, feedback and rl only/],
      [["--format", "verifier", "--style", "fancy"], 2, /--style for --format verifier must be one of plain, rrm/],
      [["--format", "feedback", "--style", "rrm"], 2, /--style for --format feedback must be one of turns, dialogue/],
      [["--max-length", "0"], 2, /--max-length must be >= 1/],
      [["--max-length", "many"], 2, /--max-length expects an integer/],
      [["--tokenizer", join(tmp, "none.json"), "--max-length", "100"], 1, /--tokenizer .*none\.json: cannot read a tokenizer\.json \(no such file\)/],
      [["--tokenizer", join(ROOT, "package.json"), "--max-length", "100"], 1, /--tokenizer .*package\.json: not a Hugging Face tokenizer\.json/],
    ];
    for (const [flags, code, re] of cases) {
      const r = await cliAsync([...BASE, ...flags, "--out", dir]);
      expect(r.code, flags.join(" ")).toBe(code);
      expect(r.stderr).toMatch(re);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(dir)).toBe(false);
    }
  });
});

describe("every format's output folder", () => {
  it("stats re-reads its shards without a warning (pairs: by the rejected step's category)", async () => {
    for (const name of [...FORMATS, ...VARIANTS]) {
      const r = await cliAsync(["stats", need(out, name), "--json"]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect((JSON.parse(r.stdout) as { mismatches: string[] }).mismatches).toEqual([]);
    }
  });

  it("--max-length with a tokenizer writes the same bytes for any --workers", () => {
    const dir = join(tmp, "trl-limited-2");
    expect(cli([...BASE, "--format", "trl", "--tokenizer", TOKENIZER, "--max-length", String(LIMIT), "--out", dir, "--workers", "2", "--quiet"]).code).toBe(0);
    expect(lines(dir)).toEqual(lines(need(limited, "trl")));
  });
});

describe("score reads the preference layouts", () => {
  it("pairs and trajectories, strings or chat messages: accuracy of always preferring side a", () => {
    for (const name of ["pairs", "trajectories", "pairs-chat"]) {
      const rs = rows(need(out, name));
      const pred = join(tmp, `${name}-pred.jsonl`);
      writeFileSync(pred, rs.map((r) => JSON.stringify({ id: r["id"], prefer: "a" })).join("\n") + "\n");
      const r = cli(["score", need(out, name), pred, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const want = (100 * rs.filter((x) => x["first"] === "chosen").length) / rs.length;
      expect((JSON.parse(r.stdout) as { pairs: { n: number; accuracy: number } }).pairs.accuracy).toBeCloseTo(want, 1);
      if (name === "pairs") expect(Object.keys((JSON.parse(r.stdout) as { pairs: { by_group: object } }).pairs.by_group)).not.toContain("unknown");
    }
  });
});
