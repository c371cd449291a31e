/** The curated public API of armstudy, grouped by layer from the bottom (imports point down: view → study → render → measure → sessions → run → core). */

// core: pure decisions (tokens, prompt, plan, report, goal, policies, envelope) — no I/O, no clock.
export { countTokens, contentHash, TokenCounter } from "./core/tokens.ts";
export { seededRng, deriveSeed, type Rng } from "./core/random.ts";
export type { ModelClient, ModelRequest, ModelReply, Message, ToolCall, ToolSpec, Usage, UsageSource, StopReason } from "./core/model.ts";
export { compile, cutToFit, REPORTING_SECTION_ID, type CompileOptions } from "./core/prompt/compile.ts";
export type { PromptPack, PromptSection, PromptInputs, RenderFunction, SectionBudget, SectionSource, SectionStats, CutRule, CompileResult, Violation } from "./core/prompt/types.ts";
export { parseSectionFile, type ParsedSectionFile } from "./core/prompt/front-matter.ts";
export { BUILTIN_SECTIONS } from "./core/prompt/builtins.ts";
export { PackError, type PackErrorCode } from "./core/prompt/errors.ts";
export { budgetReport, budgetJson, baselineEntry, mergeBaseline, formatBudgetText, githubAnnotations, type Baseline, type BaselineArm, type ArmBudgetReport, type BudgetViolation } from "./core/prompt/budget-report.ts";
export { classifyPlanReply, findOutcomeTags, PLAN_RULES, type PlanResult, type PlanOutcome, type PlanInvalidReason, type OutcomeTag } from "./core/plan/classify.ts";
export { planRepairInstruction } from "./core/plan/repair.ts";
export { renderReportingGuidance } from "./core/report/guidance.ts";
export { analyzeFinalReport, explainFinalReport, reportPatternHits, REPORT_PATTERNS, type FinalReportAnalysis, type ReportPattern, type AnalyzeOptions, type PatternHit } from "./core/report/analyze.ts";
export { ANALYZER_ACCURACY, type AnalyzerAccuracy, type FieldAccuracy } from "./core/report/accuracy.ts";
export type { TurnEndPolicy, RunView, ReplyView, PolicyDecision, SettleStatus, TodoItem, ToolCallView, StepView, Measurement, PolicyRecord, PolicyToolCall, PolicyToolResult, ClaimVerdictView, ReplyEndReason } from "./core/policies/contract.ts";
export { createPolicies, createTurnEndControl, combinePolicies, POLICY_NAMES, PolicyOptionsError, type PolicySpec, type PolicyName } from "./core/policies/index.ts";
export { reduceGoal, isTerminal, isRunnable, isResumable, parseGoalStatus, GOAL_STATUSES, DEFAULT_GOAL_LIMITS, goalToolSpecs, handleGoalTool, checkClaim, claimCheckRecord, completionCheckMode, parseVerdict, applyEvidenceShield, renderContinuation, renderBudgetLimit, renderObjectiveUpdated, type Goal, type GoalStatus, type GoalEvent, type GoalEffect, type GoalChange, type ClaimCheckResult, type CompletionCheckMode } from "./core/goal/index.ts";
export { checkEnvelope, type CheckOptions, type CheckResult, type Verdict } from "./core/envelope/check.ts";
export { ROUTES, type Route, type RuleId, type Finding, type Warning as EnvelopeWarning } from "./core/envelope/findings.ts";
export { EnvelopeShape, NovelDecision, DecisionOption, LedgerEntry, MergePlan, AttestationValue, EnvelopeStatus, TaskId, type Envelope } from "./core/envelope/schema.ts";
export { parseEnvelopeText, EnvelopeTextError, type EnvelopeDocument } from "./core/envelope/document.ts";
export { extractSynthesisDimensions, PlanFormatError, type PlanDimensions } from "./core/envelope/plan.ts";
export { lintDecisionLedger, type LedgerLint } from "./core/envelope/ledger-lint.ts";
export { intentFreshness, stampIntentText, stampMarker, type IntentFreshness, type FreshnessVerdict } from "./core/envelope/intent.ts";
export { dispatchRow, completionRow, summarizeCostLedger, ledgerLine, newTaskId, type LedgerRow, type LedgerSummary } from "./core/envelope/cost-ledger.ts";
export { envelopeFromRun, parseNumstat, renderEnvelopeYaml, EmitError, type RunForEnvelope } from "./core/envelope/emit.ts";

// run: one agent run — the run record, arms, model adapters, tools, the agent loop and the external-client drivers.
// The library's first count maps the committed compact o200k table, as the CLI's does (ADR 0162).
import { useO200kTableFile } from "./run/o200k-table-file.ts";
useO200kTableFile();
export { useO200kTableFile, readO200kTableFile, O200K_TABLE_FILE } from "./run/o200k-table-file.ts";
export { RunEvent } from "./run/record.ts";
export { RecordWriter, RecordWriterError, type RecordWriterOptions } from "./run/record-writer.ts";
export { readRecord, readRecordFile, type RecordWarning, type ReadRecordOptions } from "./run/record-reader.ts";
export { loadArm, loadArms, loadArmSet, listArmNames, type ResolvedArm, type LoadArmsOptions } from "./run/arms/load.ts";
export type { LoadedArm, AgentKind, CompiledPrompt } from "./run/arms/types.ts";
export { createModelClient, parseModelSpec, ModelSpecError, type ModelSpec, type CreateModelClientOptions } from "./run/models/spec.ts";
export { OpenAICompatibleClient, PROVIDER_COMPAT, type ProviderCompat, type ProviderKind } from "./run/models/openai-compatible.ts";
export { harnessFault, type HarnessFaultCode } from "./run/models/fault.ts";
export { createScriptedClient, ScriptedClient, loadPersona, PersonaError, type Persona, type PersonaStep, type PersonaTraits } from "./run/models/scripted.ts";
export { createToolbox, Toolbox, BUILTIN_TOOLS, confine, runCommand, shellEnvironment, ToolError, type Tool, type ToolContext, type ToolOutcome } from "./run/tools/index.ts";
export { probeSandbox, sandboxCommand, unsandboxedRefusal, type RunSandbox, type Sandbox, type SandboxLimits, type SandboxSpec } from "./run/sandbox/index.ts";
export { runAgent, policiesOf, AgentError, DEFAULT_LIMITS, type AgentExtras } from "./run/agent.ts";
export type { AgentRunOptions, AgentRunOutcome, AgentRunner } from "./run/agent-contract.ts";
export { RequestTokenCounter, MESSAGE_FRAMING_TOKENS } from "./run/agent-tokens.ts";
export { createDriver, STREAM_FORMAT, type DriverConfig, type Endpoint } from "./run/drivers/driver.ts";
export { codexDriver } from "./run/drivers/codex.ts";
export { claudeDriver } from "./run/drivers/claude.ts";
export { piDriver } from "./run/drivers/pi.ts";
export {
  personaEndpoint,
  providerEndpoint,
  driverEndpoint,
  createDriverModel,
  parseProviderSpec,
  ProviderModel,
  REQUEST_LOG_FILE,
  PERSONA_USAGE_SOURCE,
  type PersonaEndpointOptions,
  type ProviderTarget,
} from "./run/drivers/endpoints.ts";
export { probeNetwork, openLoopbackBridge, type NetworkMode, type LoopbackBridge } from "./run/drivers/netns.ts";
export { sessionCheck, compareDigests, digestOf, findSessionFile, SESSION_FILE_FORMAT, type SessionImporter, type CheckNote } from "./run/drivers/session-check.ts";
export type { StreamMapper, StreamMapperFactory, StreamStart } from "./run/drivers/contract.ts";

// sessions: recorded sessions of real agents (Codex, Claude Code, pi) read into run records.
export { openSession, openSessionFile, importSessionFile, detectFormat, FORMATS, SessionFormatError, type ImportOptions, type SessionImport } from "./sessions/import.ts";
export { SESSION_FORMATS, type SessionFormat } from "./sessions/format.ts";
export { liveMapper } from "./sessions/live.ts";

// measure: metrics and statistics over run records, whatever produced them.
export { runMetrics, runReportFacts, MetricsAccumulator, type ReportFacts, type RunMetrics, type RunMetricsWithAcceptance, type AcceptanceInput, type ClaimSource, type TokenMetrics, type MetricsOptions } from "./measure/metrics.ts";
export { DEFAULT_PRICES, PRICES_AS_OF, priceFor, costOf, type ModelPrice, type PriceTable } from "./measure/prices.ts";
export { TOOL_FAMILIES, familyOf, filesReadByCommand, type ToolFamily } from "./measure/tool-families.ts";
export { analyzeSessionFile, renderAnalysisTable, type SessionAnalysis } from "./measure/session-analysis.ts";
export { analyzeFiles, type PoolResult } from "./measure/session-pool.ts";
export { sessionRow, type SessionRow } from "./measure/session-rows.ts";
export { compareCohorts, COHORT_KEYS, type CohortComparison, type CohortKey } from "./measure/cohorts.ts";
export { discoverRoots, walkSessionFiles, type SessionRoot } from "./sessions/discover.ts";
export { mean, median, summarizeCounts, summarizeRate, bootstrapMeanCI, bootstrapMeanDifference, compareRates, wilson, fisherExact, smallSampleWarning, SMALL_SAMPLE, type Interval, type CountSummary, type RateSummary, type CountDifference, type RateDifference } from "./measure/stats.ts";
export { mcnemarExact, passAtK, passHatK, hierarchicalBootstrap, pairedBinary, type PairedBinary, type Estimate } from "./measure/suite-stats.ts";

// render: a results folder → summary.json, report.md and charts.
export { loadResults, readStudyMeta, runFolder, type StudyMeta, type RunResult, type ArmMeta, type LoadedResults, type MetricsView, type CheckSpec, type CheckOutcome, type AcceptanceResult } from "./render/results.ts";
export { summarize, SUMMARY_SCHEMA, type StudySummary, type ArmSummary, type Comparison, type RunRow } from "./render/summary.ts";
export { renderReportMarkdown } from "./render/report.ts";
export { renderCharts, type ChartFile } from "./render/charts.ts";
export { renderStudyReport, type RenderedReport } from "./render/render.ts";

// study: the arm runner — study files, worktrees, acceptance checks, shards, merge, and envelopes on disk.
export { loadStudyFile, parseStudyFile, selectArms, type StudySpec } from "./study/study-file.ts";
export { loadTask, loadTasks, type TaskSpec } from "./study/task.ts";
export { checkPersona, type PersonaCheckReport } from "./study/persona-check.ts";
export { runStudy, type StudyRunOptions, type StudyRunOutcome, type StudyDeps, type StudyArm, type ProgressEvent } from "./study/runner.ts";
export { defaultStudyDeps } from "./study/deps.ts";
export { mergeStudies, type MergeOutcome } from "./study/merge.ts";
export { planRuns, shardOf, parseShard, type PlannedRun, type Shard } from "./study/plan.ts";
export { loadChecks, runAcceptance, runCheck } from "./study/checks.ts";
export { materialiseFixture, addWorktree, removeWorktree, pruneStaleWorktrees, collectDiff, checkRunGit } from "./study/git.ts";
export { StudyInputError } from "./study/errors.ts";
export { checkEnvelopeFile, readEnvelopeFile, readPlanFile, EnvelopeFileError } from "./study/envelope/files.ts";
export { appendLedgerRow, readLedgerSummary } from "./study/envelope/cost-ledger.ts";
export { checkIntentFreshness, stampIntentFile } from "./study/envelope/intent.ts";
export { writeEnvelopeFile } from "./study/envelope/write.ts";
export { writeRunEnvelope, finalReplyText, ENVELOPE_FILE, type RunEnvelopeInput } from "./study/envelope/run.ts";

// view: report.html for a study or a session, and `view --serve`.
export { writeStudyView, VIEW_FILE } from "./view/write.ts";
export { writeSessionView } from "./view/write-session.ts";
export { serveViews, type RunningServer } from "./view/serve.ts";
export { buildPageAssets, type PageAssets } from "./view/assets.ts";
