/** Ground tasks: normalisation and grounding, packed states, successor generation, validation. */
export type { GroundTask } from "./types.js";
export { ground, GroundingLimit, type GroundOptions } from "./ground.js";
export {
  hasFact, setFact, emptyState, isApplicable, applyOp, evaluateAxioms, isGoal, stateToFacts, stateKey,
} from "./state.js";
export { StateRegistry, hashState } from "./registry.js";
export { SuccessorGenerator, successorGeneratorOf } from "./successor.js";
export { explainAction, explainGoal, findOperator, parseGroundAction, resolveGroundAction } from "./explain.js";
export { parsePlan, validatePlan, type ValidationResult } from "./validate.js";
export { computeFactGroups, type FactGroups, type FactGroupOptions } from "./invariants.js";
export { buildFdrTask, fdrTaskOf, type FdrGroups, type FdrOperator, type FdrTask, type FdrUnsupported } from "./fdr.js";
