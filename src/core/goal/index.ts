/** The goal loop as a pure library: status, reducer, prompts, tools, the claim check and the evidence shield. */
export { GOAL_STATUSES, GoalStatusError, isResumable, isRunnable, isTerminal, parseGoalStatus, type GoalStatus } from "./status.ts";
export {
  BLOCKED_ROUNDS,
  DEFAULT_GOAL_LIMITS,
  STALL_ROUNDS,
  type Actor,
  type BlockerStreak,
  type Goal,
  type GoalChange,
  type GoalClaim,
  type GoalClaimInput,
  type GoalEffect,
  type GoalEvent,
  type GoalLimits,
  type GoalRejection,
  type GoalStep,
  type RoundSummary,
  type RoundTrigger,
} from "./types.ts";
export { newGoal, normalizeBlocker, reduceGoal, settleStatusFor } from "./reducer.ts";
export { capReached, renderBudgetLimit, renderContinuation, renderObjectiveUpdated } from "./prompts.ts";
export { GET_GOAL, GET_GOAL_SPEC, GOAL_TOOL_NAMES, UPDATE_GOAL, UPDATE_GOAL_SPEC, goalSnapshot, goalToolSpecs, handleGoalTool, type GoalToolCall, type GoalToolOutcome } from "./tools.ts";
export {
  DEFAULT_DIGEST_CHARS,
  DEFAULT_ENTRY_CHARS,
  buildClaimCheckRequest,
  checkClaim,
  claimCheckRecord,
  clip,
  completionCheckMode,
  digestTranscript,
  evidenceOutputs,
  parseVerdict,
  verdictWord,
  type ClaimCheckInput,
  type ClaimCheckRequestInput,
  type ClaimCheckResult,
  type CompletionCheckMode,
  type DigestOptions,
  type ParsedVerdict,
  type UncheckedCause,
} from "./check.ts";
export { EVIDENCE_NOT_FOUND, MIN_EVIDENCE_CHARS, applyEvidenceShield, cleanQuote, normalizeWhitespace, quoteFound, type ShieldResult } from "./shield.ts";
export { TemplateError, escapeXml, formatDuration, placeholders, renderTemplate, unescapeXml } from "./template.ts";
