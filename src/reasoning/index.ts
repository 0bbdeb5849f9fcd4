/** Reasoning questions with exact answers (`--format acp`, docs/reasoning.md). */
export { ACP_FORMS, ACP_KINDS, acpLine, buildAcp, byLengthRank, OPEN_KINDS, type AcpForm, type AcpGold, type AcpInput, type AcpKind, type AcpRow } from "./questions.js";
export { actionReachable, Actions, applicableOps, depthsFrom, factsReachable, guidedReach, isLandmark, Mutexes, mutexesOf, Relaxation, progression, relaxedReachable, replay, searchReach, validPlan, type Proof, type Proved, type SearchBudget } from "./engine.js";
export { formatAcpReport, gradeAcp, isAcpGold, scoreAcp, scoreAcpFiles, AcpTextReader, type AcpGoldItem, type AcpScoreReport } from "./score.js";
export { ACPBENCH_FILES, ACPBENCH_GROUPS, ACPBENCH_TASKS, acpbenchId, acpbenchLayout, GEN_QUESTIONS, JUST_PREFIX, JUST_SUFFIX, splitQuestion, type AcpbenchLayout, type AcpRowLike, type PddlOf } from "./acpbench.js";
