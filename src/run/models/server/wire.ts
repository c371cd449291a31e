/**
 * What each wire protocol module provides: read a client's request body into the provider-neutral
 * ModelRequest, and write a ModelReply back in the client's own format.
 */
import type { ServerResponse } from "node:http";
import type { ModelReply, ModelRequest } from "../../../core/model.ts";

export interface WireProtocol {
  /** The URL path the client posts to, such as `/v1/chat/completions`. */
  path: string;
  toModelRequest(body: Record<string, unknown>): ModelRequest;
  writeReply(res: ServerResponse, reply: ModelReply, options: { stream: boolean; model: string; seq: number }): void;
}

/** The text of a content field that may be a string or a list of typed parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
    .filter((text) => text.length > 0)
    .join("\n");
}

/** Parses a tool call's JSON argument string; a non-object becomes `{ input: value }`. */
export function parseArguments(raw: unknown): Record<string, unknown> {
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== "string" || raw.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { input: value };
  } catch {
    return { input: raw };
  }
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
