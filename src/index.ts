/**
 * pddl2prm public API. The pipeline runs left to right:
 * pddl (parse) -> task (ground) -> search (solve, h*) -> label (classify, walk) -> nl (render)
 * -> products (judge, pairs, trajectories, processbench, feedback dialogues, verifier data)
 * -> dataset (rows, shards) -> audit (shortcut baselines). Each stage is usable on its own.
 */
export {
  parseDomain,
  parseProblem,
  parseDomainFile,
  parseProblemFile,
  printDomain,
  printProblem,
  PddlError,
  UserError,
} from "./pddl/index.js";
export type { Domain, Problem, Loc } from "./pddl/index.js";

export {
  ground,
  isApplicable,
  applyOp,
  isGoal,
  stateToFacts,
  SuccessorGenerator,
  StateRegistry,
  explainAction,
  parseGroundAction,
  parsePlan,
  validatePlan,
} from "./task/index.js";
export type { GroundTask, ValidationResult } from "./task/index.js";

export { astar, solve, createHeuristic, createOracle, formatPlan } from "./search/index.js";
export type { Heuristic, HStarOracle, SearchResult, SearchLimits } from "./search/index.js";
export type { WorkCounts } from "./search/index.js";

export { classify, labelProblem, labelProblemAll, sampleCandidates, createLabelContext, ProblemSkipped, REWARD } from "./label/index.js";
export type { Category, Candidate, Evidence, LabeledStep } from "./label/index.js";

export { createRenderer, loadTemplates, loadTemplatesFile } from "./nl/index.js";
export type { Renderer, NlTemplates } from "./nl/index.js";

export { BUILTIN_DOMAINS, getBuiltinDomain, builtinDomainFile, builtinProblemsDir, generateProblems } from "./generators/index.js";

export { judgePlan, JudgeSession, JudgeRequestSchema, type JudgeRequest, type JudgeSessionOptions } from "./products/judge-session.js";
export { createJudgeTask, judgeSteps, planSteps, type Judgement, type JudgedStep, type JudgeCategory, type JudgeTask, type JudgeOptions } from "./products/judge.js";
export { buildFeedback, feedbackTurns, FEEDBACK_STYLES, type FeedbackRow, type FeedbackStyle, type FeedbackTurnRow } from "./products/feedback.js";
export { buildVerifier, VERIFIER_STYLES, type VerifierRow, type VerifierStyle } from "./products/verifier.js";
export { buildRl, rlPrompt, pddlSha256, RL_STYLES, type RlRow, type RlStyle, type RlInput, type RlGroundTruth } from "./products/rl.js";
export { extractPlan, vocabularyOf, type Extraction, type ExtractedStep, type PlanVocabulary } from "./products/rl-extract.js";
export {
  rewardAnswer,
  rewardsOf,
  RewardSession,
  RewardRequestSchema,
  DEFAULT_OUTCOME_WEIGHT,
  type RewardRequest,
  type RewardResult,
  type RewardedStep,
  type RewardOptions,
  type RewardSessionOptions,
} from "./products/rl-reward.js";

export { generate, type GenerateOptions, type Progress } from "./dataset/pipeline.js";
export { writeDataset, type WriteOptions, type DatasetSummary } from "./dataset/write.js";
export { mergeDataset, type Manifest } from "./dataset/manifest.js";
export { runAudit, formatAuditTable, auditHeadline, datasetAuditor, AUDIT_THRESHOLDS, type AuditReport, type AuditOptions } from "./audit/index.js";
export { NativeRowSchema, type NativeRow } from "./dataset/row.js";
export { formatRow, FORMATS, FORMAT_CONSUMERS, type Format } from "./dataset/formats.js";
