import type { Command } from "commander";
import { join } from "node:path";
import { mergeDataset, readRanks } from "../dataset/manifest.js";
import { categoryKey, countShard, formatStatsTable, statsCsvText, statsTable } from "../dataset/stats.js";
import { CATEGORIES } from "../dataset/row.js";
import { PLOT_FILES, plotTexts } from "../dataset/plots.js";
import { mayReplace, ownedFiles, recordWritten } from "../dataset/ownership.js";
import { existsSync } from "node:fs";
import { UserError } from "../pddl/errors.js";
import { checkDatasetFolder, folderCheckError, strayDataFiles } from "../dataset/integrity.js";
import { action, printJson } from "./common.js";

export function register(program: Command): void {
  program
    .command("stats")
    .description("count rows per domain, split and category of a dataset folder, re-read from its shards; writes stats.csv")
    .argument("<outdir>", "a folder written by `pddl2prm generate`")
    .option("--json", "print one JSON object")
    .option("--plot", "also draw the category mix per domain and the plan-length distribution as SVG (plots/, linked from the dataset card)")
    .action(
      action(async (outdir: string, flags: { json?: boolean; plot?: boolean }) => {
        const { config, ranks, missing, world } = readRanks(outdir);
        const key = categoryKey(String(config["format"] ?? "native"));
        if (missing.length > 0) throw new UserError(`${outdir}: ranks not complete yet: ${missing.join(", ")} (of ${world})`);
        const problems = ranks.flatMap((r) => r.problems);
        const table = statsTable(problems);
        // Recount from the shards themselves: the files are the truth.
        const mismatches: string[] = [];
        let rows = 0;
        for (const s of ranks.flatMap((r) => r.shards)) {
          if (!existsSync(join(outdir, s.path))) {
            mismatches.push(`${s.path}: missing (the completion record lists it)`);
            continue;
          }
          const c = await countShard(join(outdir, s.path), key);
          rows += c.rows;
          if (c.rows !== s.rows) mismatches.push(`${s.path}: ${c.rows} rows, manifest says ${s.rows}`);
          if (c.bad > 0) mismatches.push(`${s.path}: ${c.bad} rows without a category`);
        }
        const all = table.rows.find((r) => r.domain === "all" && r.split === "all");
        if (all && all.rows !== rows) mismatches.push(`shards hold ${rows} rows, problem records say ${all.rows}`);
        // (a stats.csv or plot of someone else's is not written over: ownership.ts)
        const owned = ownedFiles(outdir);
        const texts = new Map<string, string>();
        if (mayReplace(outdir, "stats.csv", owned)) texts.set("stats.csv", await statsCsvText(table));
        else process.stderr.write(`pddl2prm: warning: ${join(outdir, "stats.csv")} is not pddl2prm's; not written\n`);
        if (flags.plot && Object.values(PLOT_FILES).every((rel) => mayReplace(outdir, rel, owned))) for (const [rel, svg] of await plotTexts(problems)) texts.set(rel, svg);
        // the files and the ledger together (ownership.ts: no kill leaves a file out of it)
        recordWritten(outdir, texts, owned);
        const written = [...texts.keys()].filter((r) => r === "stats.csv");
        const plots = [...texts.keys()].filter((r) => r !== "stats.csv");
        if (flags.json) {
          printJson({
            rows,
            problems: problems.length,
            skipped: problems.filter((p) => p.skipped !== null).length,
            by_category: Object.fromEntries(CATEGORIES.map((k) => [k, all?.counts[k] ?? 0])),
            table: table.rows,
            mismatches,
            ...(flags.plot ? { plots } : {}),
          });
        } else {
          process.stdout.write(formatStatsTable(table) + "\n");
          process.stdout.write(`${rows} rows; wrote ${[...written, ...plots].map((p) => join(outdir, p)).join(", ") || "nothing"}\n`);
          for (const m of mismatches) process.stderr.write(`pddl2prm: warning: ${m}\n`);
        }
        if (mismatches.length > 0) process.exitCode = 1;
      }),
    );

  program
    .command("merge")
    .description("check that every rank of a multi-machine run is complete and write manifest.json, README.md and stats.csv")
    .argument("<outdir>", "the shared output folder of all ranks")
    .option("--verify", "first check the folder, writing nothing when it fails: every shard, PDDL copy and ledger-listed file there, whole and unchanged (re-hashed), no stray file in data/, no half-finished --force swap")
    .action(
      action(async (outdir: string, flags: { verify?: boolean }) => {
        if (flags.verify) {
          const problems = await checkDatasetFolder(outdir, { merged: false });
          if (problems.length > 0) throw folderCheckError(outdir, problems);
        }
        const { datasetAuditor } = await import("../audit/index.js");
        const kept: string[] = [];
        const m = (await mergeDataset(outdir, { audit: datasetAuditor, onKept: (k) => kept.push(...k) }))!;
        const wrote = ["manifest.json", "README.md", "stats.csv"].filter((f) => !kept.includes(f));
        process.stdout.write(`merged ${m.world} rank(s): ${m.rows} rows in ${m.shards.length} shards; wrote ${wrote.join(", ")}\n`);
        if (kept.length > 0) process.stderr.write(`pddl2prm: warning: kept ${kept.map((k) => join(outdir, k)).join(", ")} (not pddl2prm's: edited, or not in its ledger); move ${kept.length > 1 ? "them" : "it"} away and merge again to have the dataset's written\n`);
        for (const line of strayDataFiles(outdir)) process.stderr.write(`pddl2prm: warning: ${line}\n`);
      }),
    );
}
