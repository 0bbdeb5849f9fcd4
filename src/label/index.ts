/** Exact step labels (DESIGN.md §6, §7): the classifier, the candidate sampler and the walk. */
export * from "./types.js";
export {
  createLabelContext,
  DEFAULT_ORACLE_MAX_EDGES,
  DEFAULT_ORACLE_MAX_STATES,
  hstar,
  noteLabellingTime,
  type LabelContext,
  type LabelContextOptions,
  type LabelLimits,
  type LabelStats,
} from "./context.js";
export { classify, labelExecutable, opCandidate, operatorCandidate, backtrackCheck, deadEndProof, type Label } from "./classify.js";
export {
  sampleCandidates,
  drawCandidates,
  emptyTally,
  groundingName,
  repeatsObject,
  schemasRepeatingObjects,
  type SampleOptions,
  type DrawnCandidate,
} from "./sample.js";
export { labelProblem, labelProblemAll, labelProblemSteps, optimalWalk, ProblemSkipped, type LabelOutcome, type LabelProblemOptions } from "./walk.js";
