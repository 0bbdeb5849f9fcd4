/** The shortcut audit of a dataset folder (`pddl2prm audit`, docs/audit.md). */
import type { DatasetAuditor } from "../dataset/records.js";
import { runAudit } from "./audit.js";
import { auditHeadline } from "./report.js";

export { runAudit, AUDIT_THRESHOLDS, type AuditOptions, type AuditReport, type RuleResult, type Check, type ClassifierResult } from "./audit.js";
export { formatAuditTable, auditHeadline } from "./report.js";

/** An auditor for `writeDataset` / `mergeDataset`: the audit's headline for the card, default thresholds. */
export const datasetAuditor: DatasetAuditor = async (out) => auditHeadline(await runAudit(out));
