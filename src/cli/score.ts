import type { Command } from "commander";
import { formatReport, score, type ScoreOptions } from "../products/score.js";
import { formatAcpReport, isAcpGold, scoreAcpFiles } from "../reasoning/index.js";
import { action, printJson, UsageError } from "./common.js";

interface ScoreFlags {
  threshold?: string;
  tune?: string[];
  split?: string;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command("score")
    .description("score PRM predictions against first-error chains (ProcessBench F1) or preference pairs, or answers to reasoning questions (--format acp) per kind")
    .argument("<gold>", "gold rows: a .jsonl[.gz] file or a dataset folder (processbench, pairs, trajectories, native or acp)")
    .argument("<pred>", "predictions, JSONL: {id, step_scores: [...]} per chain, {id, prefer: \"a\"|\"b\"} per pair, or {id, answer: \"...\"} per reasoning question (--format acp)")
    .option("--threshold <t>", "a step is predicted wrong when its score is < t (default 0.5)")
    .option("--tune <files...>", "VALIDATION_GOLD VALIDATION_PRED: pick the threshold with the best F1 there")
    .option("--split <name>", "with a dataset folder as gold: only this split's shards")
    .option("--json", "print one JSON object")
    .action(
      action((gold: string, pred: string, flags: ScoreFlags) => {
        const opts: ScoreOptions = {};
        if (flags.threshold !== undefined && flags.tune !== undefined) throw new UsageError("give --threshold or --tune, not both");
        if (flags.threshold !== undefined) {
          const t = Number(flags.threshold);
          if (flags.threshold.trim() === "" || !Number.isFinite(t)) throw new UsageError(`--threshold expects a number, got '${flags.threshold}'`);
          opts.threshold = t;
        }
        if (flags.tune !== undefined) {
          if (flags.tune.length !== 2) {
            throw new UsageError(`--tune expects two files (VALIDATION_GOLD VALIDATION_PRED), got ${flags.tune.length}; put it after GOLD PRED`);
          }
          opts.tune = { gold: flags.tune[0]!, pred: flags.tune[1]! };
        }
        if (flags.split !== undefined) opts.split = flags.split;
        if (isAcpGold(gold, flags.split)) {
          // reasoning questions (--format acp): answers graded per kind
          if (flags.threshold !== undefined || flags.tune !== undefined) throw new UsageError("--threshold and --tune apply to step scores, not to reasoning questions");
          const r = scoreAcpFiles(gold, pred, flags.split);
          if (r.unmatched.length > 0) process.stderr.write(`pddl2prm: warning: ${pred}: ${r.unmatched.length} answer id${r.unmatched.length === 1 ? " is" : "s are"} not in the gold rows, ignored (first: '${r.unmatched[0]}')\n`);
          const { unmatched: _, ...report } = r;
          if (flags.json) printJson(report);
          else process.stdout.write(formatAcpReport(report) + "\n");
          return;
        }
        const report = score(gold, pred, opts);
        const u = report.unmatched_predictions;
        if (u.count > 0) {
          const where = flags.split !== undefined ? ` (split ${flags.split})` : "";
          process.stderr.write(`pddl2prm: warning: ${pred}: ${u.count} prediction id${u.count === 1 ? " is" : "s are"} not in the gold rows${where}, ignored (first: ${u.first.map((x) => `'${x}'`).join(", ")})\n`);
        }
        if (flags.json) printJson(report);
        else process.stdout.write(formatReport(report) + "\n");
      }),
    );
}
