/**
 * bench/acp-check: every answer of `--format acp` folders re-derived by brute force, on a path
 * independent of the engine's proofs and of the grounder (bench/acp-truth.ts): the problem
 * re-read from the folder's PDDL copy and its lifted formulas evaluated on states (quantified
 * preconditions, conditional effects, derived predicates), the states from the question's state
 * enumerated one by one over all ground actions (no relaxation, no mutexes, no h*), plans
 * replayed. Reachability and action reachability read the enumeration (within `meta.horizon`
 * steps where set), a landmark is checked by an enumeration that never enters a state where the
 * fact holds, the next action by exact goal distances with action costs (Dijkstra backwards over
 * the enumerated states). A question that shows an option or item twice is wrong.
 *
 * A question whose state space is larger than --max-states (default 200,000) is skipped and
 * counted, except within-n-steps questions, which need only the first n layers.
 *
 *   node dist/bench/acp-check.js FOLDER... [--max-states N] [--out FILE]
 *
 * Exit 1 if any answer is wrong (each printed), 0 otherwise.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AcpRow } from "../src/reasoning/index.js";
import { check, enumerate, stateOf, TooLarge, World, type Space } from "./acp-truth.js";
import { takeFlag } from "./args.js";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => takeFlag(args, name);
const maxStates = Number(flag("--max-states") ?? 200_000);
const outFile = flag("--out");
if (args.length === 0 || !Number.isInteger(maxStates) || maxStates < 1 || args.some((a) => a.startsWith("--"))) {
  console.error("usage: node dist/bench/acp-check.js FOLDER... [--max-states N] [--out FILE]");
  process.exit(2);
}

interface Tally {
  checked: number;
  wrong: number;
  skipped: number;
}
const byKind = new Map<string, Tally>();
const tally = (k: string): Tally => byKind.get(k) ?? byKind.set(k, { checked: 0, wrong: 0, skipped: 0 }).get(k)!;
const wrongIds: string[] = [];
/** Questions showing one option (or item) twice: wrong whatever their answer (counted among the wrong ones too). */
let repeated = 0;
for (const dir of args) {
  if (!existsSync(join(dir, "data")) || !existsSync(join(dir, "pddl"))) {
    console.error(`bench/acp-check: ${dir}: not a pddl2prm dataset folder (no data/ or pddl/)`);
    process.exit(2);
  }
  const worlds = new Map<string, World>();
  const spaces = new Map<string, Space | null>();
  for (const name of readdirSync(join(dir, "data")).sort()) {
    for (const [at, line] of readFileSync(join(dir, "data", name), "utf8").split("\n").entries()) {
      if (line === "") continue;
      let row: AcpRow;
      try {
        row = JSON.parse(line) as AcpRow;
      } catch {
        console.error(`bench/acp-check: ${dir}/data/${name}:${at + 1}: not a JSON line`);
        process.exit(2);
      }
      if (row.kind === undefined || row.meta?.gold === undefined) {
        console.error(`bench/acp-check: ${dir}/data/${name}: not an acp row (${row.id ?? "no id"})`);
        process.exit(2);
      }
      const t = tally(row.kind);
      if ((row.choices !== null && new Set(row.choices).size < row.choices.length) || new Set(row.meta.items).size < row.meta.items.length) repeated++;
      let world = worlds.get(`${row.domain}/${row.problem}`);
      if (world === undefined) {
        const base = join(dir, "pddl", row.domain);
        const own = join(base, `${row.problem}.domain.pddl`);
        const df = existsSync(own) ? own : join(base, "domain.pddl");
        // one problem's world kept at a time (rows of a problem are consecutive)
        worlds.clear();
        world = World.fromFiles(df, join(base, `${row.problem}.pddl`));
        worlds.set(`${row.domain}/${row.problem}`, world);
      }
      const s = stateOf(world, row);
      const key = `${row.domain}/${row.problem}/${row.meta.state_index}`;
      // rows of a state are consecutive: one state's enumeration kept at a time
      if (!spaces.has(key)) spaces.clear();
      const w = world;
      const full = (): Space => {
        let sp = spaces.get(key);
        if (sp === undefined) {
          try {
            sp = enumerate(w, s, maxStates);
          } catch (e) {
            if (!(e instanceof TooLarge)) throw e;
            sp = null;
          }
          spaces.set(key, sp);
        }
        if (sp === null) throw new TooLarge();
        return sp;
      };
      try {
        const ok = check(world, row, s, full, maxStates);
        t.checked++;
        if (!ok) {
          t.wrong++;
          wrongIds.push(row.id);
          console.log(`WRONG ${dir}: ${row.id} (answer ${JSON.stringify(row.answer)})`);
        }
      } catch (e) {
        if (!(e instanceof TooLarge)) throw e;
        t.skipped++;
      }
    }
  }
}

const total = [...byKind.values()].reduce((a, x) => ({ checked: a.checked + x.checked, wrong: a.wrong + x.wrong, skipped: a.skipped + x.skipped }), { checked: 0, wrong: 0, skipped: 0 });
const lines = [
  `bench/acp-check: ${args.join(" ")} (--max-states ${maxStates})`,
  `${"kind".padEnd(22)}${"checked".padStart(9)}${"wrong".padStart(7)}${"skipped".padStart(9)}`,
  ...[...byKind.entries()].sort().map(([k, x]) => `${k.padEnd(22)}${String(x.checked).padStart(9)}${String(x.wrong).padStart(7)}${String(x.skipped).padStart(9)}`),
  `${"all".padEnd(22)}${String(total.checked).padStart(9)}${String(total.wrong).padStart(7)}${String(total.skipped).padStart(9)}`,
  `questions with an option or item shown twice: ${repeated}`,
  "(skipped: the state space from the question's state is larger than --max-states)",
];
console.log(lines.join("\n"));
if (outFile !== undefined) writeFileSync(outFile, `${lines.join("\n")}\n`);
process.exit(total.wrong > 0 ? 1 : 0);
