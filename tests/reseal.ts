/**
 * Tests that rewrite a dataset's rows on purpose (planted shortcuts for the audit) make the
 * folder whole again, as if pddl2prm had written those rows: the completion records, the
 * manifest and the ledger get the shards' new rows, bytes and sha256 (and the ledger every
 * listed file's). Without this `pddl2prm audit` refuses the folder before reading a row
 * (src/dataset/integrity.ts: an edited shard is damage).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Shard {
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
}

const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

export function reseal(dir: string): void {
  const shards = new Map<string, Shard>();
  const marks = join(dir, "completions");
  for (const n of readdirSync(marks).filter((x) => /^\d{5}$/.test(x))) {
    const rec = JSON.parse(readFileSync(join(marks, n), "utf8")) as { shards: Shard[] };
    for (const s of rec.shards) {
      const bytes = readFileSync(join(dir, s.path));
      s.bytes = bytes.length;
      s.sha256 = sha256(bytes);
      if (s.path.endsWith(".jsonl")) s.rows = bytes.toString("utf8").split("\n").filter((l) => l.trim() !== "").length;
      shards.set(s.path, s);
    }
    writeFileSync(join(marks, n), JSON.stringify(rec) + "\n");
  }
  const manifestPath = join(dir, "manifest.json");
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, "utf8")) as { rows: number; shards: Shard[] };
    m.shards = m.shards.map((s) => shards.get(s.path) ?? s);
    m.rows = m.shards.reduce((a, s) => a + s.rows, 0);
    writeFileSync(manifestPath, JSON.stringify(m, null, 2) + "\n");
  }
  const ledgerPath = join(dir, ".pddl2prm-files.json");
  if (existsSync(ledgerPath)) {
    const l = JSON.parse(readFileSync(ledgerPath, "utf8")) as { files: { path: string; bytes: number; sha256: string }[] };
    for (const f of l.files) {
      if (!existsSync(join(dir, f.path))) continue;
      const bytes = readFileSync(join(dir, f.path));
      f.bytes = bytes.length;
      f.sha256 = sha256(bytes);
    }
    writeFileSync(ledgerPath, JSON.stringify(l) + "\n");
  }
}
