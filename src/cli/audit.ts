import type { Command } from "commander";
import { AUDIT_THRESHOLDS, formatAuditTable, runAudit, type AuditOptions } from "../audit/index.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readRanks } from "../dataset/manifest.js";
import { checkDatasetFolder, folderCheckError } from "../dataset/integrity.js";
import { UserError } from "../pddl/errors.js";
import { action, printJson, UsageError } from "./common.js";

function fraction(flag: string, value: string): number {
  const x = Number(value);
  if (value.trim() === "" || !Number.isFinite(x) || x < 0 || x > 1) throw new UsageError(`${flag} expects a number between 0 and 1, got '${value}'`);
  return x;
}

export function register(program: Command): void {
  program
    .command("audit")
    .description("measure surface shortcuts in a dataset folder (length, position, repeated objects, words, characters, the previous step, the prompt); exit 1 when a check fails, or when the folder is not whole (merge --verify's check, first: a file missing, emptied, changed or stray in data/)")
    .argument("<dir>", "a folder written by `pddl2prm generate` (any --format)")
    .option("--json", "print one JSON object")
    .option("--max-gap <x>", `largest allowed text-only minus action-only classifier macro-F1 (default ${AUDIT_THRESHOLDS.maxGap})`)
    .option("--max-rule <x>", "also fail when any single-row rule scores above x (0.5 = chance)")
    .option("--domain <name>", "audit only the rows of this domain")
    .addHelpText(
      "after",
      `
Checks (an estimated check fails only when it is past its limit by more than z standard errors,
z the two-sided 5% quantile Bonferroni-corrected over the audit's checks, about 2.5 to 3.2, so
data without a leak fails by chance at most 5% of the time; counts fail on any hit):
  text-minus-action gap     macro-F1 of a bag-of-words classifier minus an action-type-only one <= --max-gap
  step rows, feedback turns candidate position (a turn: its attempt) AUC within 0.5 +- ${AUDIT_THRESHOLDS.positionAuc}; rows naming
                            an object twice: not ${AUDIT_THRESHOLDS.repeatedObjectRows}+ rows of which ${AUDIT_THRESHOLDS.repeatedObjectShare * 100}% share a label;
                            feedback turns: depth (length: steps) <= ${AUDIT_THRESHOLDS.lengthRule}
  chains and pairs          length rules (steps, characters) <= ${AUDIT_THRESHOLDS.lengthRule} (pairs: in every group too);
                            position and repeated-object rules <= ${AUDIT_THRESHOLDS.pairChainRule} (chains: the first wrong step too)
  pairs, trajectories       rejected steps a fixed fact rules out (a grounding the grounder prunes, such as
                            a move between cells that are not adjacent): a count, must be 0
  probes                    what one view of a row adds to a model of the action alone, on held-out problems,
                            per class one against the rest (average precision; pairs: picking the chosen side):
                            step rows and turns: the candidate's words, characters (length for its action,
                            punctuation, spacing), position, the previous step's text (over the previous
                            action), the prompt; chains: words, characters, prompt; pairs: each side's words and
                            characters; every unit: its raw form (the text as written, words and the exact
                            characters between them, the id, the other string fields; also on steps that do
                            not parse back). Gain <= ${AUDIT_THRESHOLDS.probeGain}; a failure names the features that set the class apart.
                            Reported, not checked: what the previous step's action adds (planning knowledge:
                            an undo is backtracking), the bar a model must beat
  step rows                 rows whose prompt or prefix differs from their state's other candidates': a count, must be 0;
                            row order in its state (chains: in its problem) as written: AUC within 0.5 +- ${AUDIT_THRESHOLDS.positionAuc}
Not covered: shortcuts only the state reveals (a chain ending at the goal: bench/chain-probes).
See docs/audit.md.`,
    )
    .action(
      action(async (dir: string, flags: { json?: boolean; maxGap?: string; maxRule?: string; domain?: string }) => {
        const opts: AuditOptions = {};
        if (flags.domain !== undefined) opts.domain = flags.domain;
        if (flags.maxGap !== undefined) opts.maxGap = fraction("--max-gap", flags.maxGap);
        if (flags.maxRule !== undefined) opts.maxRule = fraction("--max-rule", flags.maxRule);
        // a dataset some of whose ranks are still missing: a pass would speak for rows not written yet
        if (existsSync(join(dir, "config.json"))) {
          const { missing, world } = readRanks(dir);
          if (missing.length > 0) throw new UserError(`${dir}: ranks not complete yet: ${missing.join(", ")} (of ${world}); audit a complete dataset (run the missing ranks, then pddl2prm merge)`);
        }
        // a folder missing, emptying or adding files: a pass would speak for rows that are not the dataset's
        const problems = await checkDatasetFolder(dir, { merged: true });
        if (problems.length > 0) throw folderCheckError(dir, problems);
        const report = await runAudit(dir, opts);
        if (flags.json) printJson(report);
        else process.stdout.write(formatAuditTable(report) + "\n");
        if (!report.pass) process.exitCode = 1;
      }),
    );
}
