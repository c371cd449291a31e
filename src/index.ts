/** The curated public API of armstudy. */
export { countTokens, contentHash, TokenCounter } from "./core/tokens.ts";
export type { ModelClient, ModelRequest, ModelReply, Message, ToolCall, ToolSpec, Usage, UsageSource, StopReason } from "./core/model.ts";
export type { TurnEndPolicy, RunView, ReplyView, PolicyDecision, SettleStatus, TodoItem, ToolCallView } from "./core/policies/contract.ts";
export { RunEvent } from "./run/record.ts";
export { RecordWriter, RecordWriterError, type RecordWriterOptions } from "./run/record-writer.ts";
export { readRecord, readRecordFile, type RecordWarning, type ReadRecordOptions } from "./run/record-reader.ts";
export { createModelClient, parseModelSpec, ModelSpecError, type ModelSpec, type CreateModelClientOptions } from "./run/models/spec.ts";
export { OpenAICompatibleClient, PROVIDER_COMPAT, type ProviderCompat, type ProviderKind } from "./run/models/openai-compatible.ts";
export { harnessFault, type HarnessFaultCode } from "./run/models/fault.ts";
