/**
 * Tests that rewrite a dataset's rows on purpose (planted shortcuts for the audit) make the
 * folder whole again, as if pddl2prm had written those rows: the completion records, the
 * manifest and the ledger get the shards' new rows, bytes and sha256 (and the ledger every
 * listed file's). Without this `pddl2prm audit` refuses the folder before reading a row
 * (src/dataset/integrity.ts: an edited shard is damage). One implementation, shared with the
 * plant benchmark (bench/plants-55.ts).
 */
export { reseal } from "../bench/plants-55.js";
