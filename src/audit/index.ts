/** The shortcut audit of a dataset folder (`pddl2prm audit`, docs/audit.md). */
import type { DatasetAuditor } from "../dataset/records.js";
import { runAudit } from "./audit.js";
import { auditHeadline } from "./report.js";

export { runAudit, AUDIT_THRESHOLDS, type AuditOptions, type AuditReport, type RuleResult, type Check, type ClassifierResult } from "./audit.js";
export { formatAuditTable, auditHeadline } from "./report.js";

/** Rows the dataset card's audit reads at most (whole problems, sampled), so a paper-scale corpus pays seconds, not minutes. */
export const CARD_AUDIT_ROWS = 100_000;

/** An auditor for `writeDataset` / `mergeDataset`: the audit's headline for the card, default thresholds. */
export const datasetAuditor: DatasetAuditor = async (out) => auditHeadline(await runAudit(out, { maxRows: CARD_AUDIT_ROWS }));
