/** The shortcut audit of a dataset folder (`pddl2prm audit`, docs/audit.md). */
import type { DatasetAuditor } from "../dataset/records.js";
import { runAudit } from "./audit.js";
import { auditHeadline } from "./report.js";

export { runAudit, AUDIT_THRESHOLDS, type AuditOptions, type AuditReport, type RuleResult, type Check, type ClassifierResult } from "./audit.js";
export { formatAuditTable, auditHeadline } from "./report.js";

/**
 * Rows the dataset card's audit reads at most (whole problems, sampled by id hash): it runs on
 * the main thread after the last row, so it is paid in wall time by every run. At 100,000 rows
 * it cost more than the whole generation once the probes came (issue 49); 10,000 keeps its cost
 * where it was before the raw-form probe (issue 55) came; `pddl2prm audit` reads every row.
 */
export const CARD_AUDIT_ROWS = 10_000;

/** An auditor for `writeDataset` / `mergeDataset`: the audit's headline for the card, default thresholds. */
export const datasetAuditor: DatasetAuditor = async (out) => auditHeadline(await runAudit(out, { maxRows: CARD_AUDIT_ROWS, headlineOnly: true }));
