/** The curated public API of armstudy. */
export { countTokens, contentHash, TokenCounter } from "./core/tokens.ts";
export type { ModelClient, ModelRequest, ModelReply, Message, ToolCall, ToolSpec, Usage, UsageSource, StopReason } from "./core/model.ts";
export type { TurnEndPolicy, RunView, ReplyView, PolicyDecision, SettleStatus, TodoItem, ToolCallView } from "./core/policies/contract.ts";
export { RunEvent } from "./run/record.ts";
