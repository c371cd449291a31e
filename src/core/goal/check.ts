/**
 * The completion-claim check. `checkClaim` asks a model, in a fresh context with no tools and at
 * low effort, whether a claim that a goal is complete holds: it sees the objective, the claim and a
 * bounded digest of the transcript. The answer is parsed tolerantly, and a `done` must pass the
 * evidence shield (shield.ts). No model, a model error or an unreadable answer accept the claim
 * as `accepted_unchecked` with the cause; so does the switch `ARMSTUDY_COMPLETION_CHECK=off`, which
 * the caller reads and passes in (core reads no environment).
 */
import type { Message, ModelClient, ModelReply, ModelRequest } from "../model.ts";
import type { ClaimVerdictView, RunView } from "../policies/contract.ts";
import { applyEvidenceShield, cleanQuote, type ShieldResult } from "./shield.ts";
import { escapeXml, renderTemplate } from "./template.ts";
import { TEMPLATES } from "./templates.ts";
import { GOAL_TOOL_NAMES } from "./tools.ts";

export type CompletionCheckMode = "on" | "off";

/** Reads the value of `ARMSTUDY_COMPLETION_CHECK`: off, 0, false, no or disabled turn the check off. */
export function completionCheckMode(value: string | undefined): CompletionCheckMode {
  return /^(off|0|false|no|disabled?)$/i.test((value ?? "").trim()) ? "off" : "on";
}

export type UncheckedCause = "check_off" | "no_model" | "model_error" | "unreadable_answer";

export interface ClaimCheckResult extends ClaimVerdictView {
  verdict: "done" | "continue" | "accepted_unchecked";
  reason: string;
  evidence: string[];
  shield: ShieldResult;
  cause?: UncheckedCause;
  /** What was sent, when a model was asked (for the `model.request` record). */
  request?: ModelRequest;
  /** The raw answer, when there was one (its usage belongs in the `model.request` record). */
  reply?: ModelReply;
}

export interface DigestOptions {
  /** Upper bound on the digest's length in characters. */
  maxChars?: number;
  /** Upper bound on one tool output or one message inside the digest. */
  maxEntryChars?: number;
  /** Tools left out of the digest and out of the shield's evidence (the goal's own tools). */
  excludeTools?: readonly string[];
}

export const DEFAULT_DIGEST_CHARS = 24_000;
export const DEFAULT_ENTRY_CHARS = 2_000;

/** Keeps the head and the larger tail (test summaries sit at the end) with a marked cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.3);
  const tail = max - head;
  return `${text.slice(0, head)}\n[... ${text.length - max} characters cut ...]\n${text.slice(text.length - tail)}`;
}

/**
 * A bounded, chronological digest of the run: each tool call with its result, and each reply's
 * text. When it does not fit, the oldest entries go first and a line says how many. Every piece
 * of model- or tool-written text is XML-escaped. Continuation prompts are not part of it.
 */
export function digestTranscript(view: RunView, options: DigestOptions = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_DIGEST_CHARS;
  const maxEntry = options.maxEntryChars ?? DEFAULT_ENTRY_CHARS;
  const exclude = new Set(options.excludeTools ?? GOAL_TOOL_NAMES);
  const entries: string[] = [];
  for (const reply of view.replies) {
    for (const call of reply.toolCalls) {
      if (exclude.has(call.name)) continue;
      const args = clip(JSON.stringify(call.arguments), 300);
      const status = call.exitCode === undefined || call.exitCode === null ? (call.ok ? "ok" : "failed") : `${call.ok ? "ok" : "failed"}, exit ${call.exitCode}`;
      entries.push(`[reply ${reply.index}] tool ${escapeXml(call.name)} ${escapeXml(args)} → ${status}\n<output>\n${escapeXml(clip(call.output, maxEntry))}\n</output>`);
    }
    if (reply.text.trim() !== "") entries.push(`[reply ${reply.index}] assistant:\n${escapeXml(clip(reply.text.trim(), maxEntry))}`);
  }
  const kept: string[] = [];
  let size = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (size + entry.length + 2 > maxChars && kept.length > 0) break;
    kept.unshift(entry.length > maxChars ? clip(entry, maxChars) : entry);
    size += entry.length + 2;
  }
  const omitted = entries.length - kept.length;
  if (omitted > 0) kept.unshift(`[${omitted} earlier entries omitted]`);
  return kept.length === 0 ? "(no tool calls or messages were recorded)" : kept.join("\n\n");
}

/** Every tool output the shield may accept evidence from: all tools but the excluded ones. */
export function evidenceOutputs(view: RunView, excludeTools: readonly string[] = GOAL_TOOL_NAMES): string[] {
  const exclude = new Set(excludeTools);
  return view.replies.flatMap((reply) => reply.toolCalls.filter((call) => !exclude.has(call.name)).map((call) => call.output));
}

export interface ClaimCheckRequestInput {
  objective: string;
  claim: string;
  view: RunView;
  meta?: { runIndex?: number; round?: number };
  digest?: DigestOptions;
  maxOutputTokens?: number;
}

/** The fresh-context request: the reviewer's instructions, then objective, claim and digest. No tools. */
export function buildClaimCheckRequest(input: ClaimCheckRequestInput): ModelRequest {
  const messages: Message[] = [
    { role: "system", content: TEMPLATES.claim_check_system },
    {
      role: "user",
      content: renderTemplate("claim_check_user", TEMPLATES.claim_check_user, {
        objective: escapeXml(input.objective),
        claim: escapeXml(input.claim),
        digest: digestTranscript(input.view, input.digest),
      }),
    },
  ];
  return {
    messages,
    tools: [],
    effort: "low",
    maxOutputTokens: input.maxOutputTokens ?? 1_000,
    meta: { ...input.meta, purpose: "claim_check" },
  };
}

export interface ParsedVerdict {
  verdict: "done" | "continue";
  reason: string;
  evidence: string[];
}

/** Maps a verdict word to done/continue: "not done", "incomplete" and friends are continue. */
export function verdictWord(value: string): "done" | "continue" | null {
  const word = value.toLowerCase().replace(/[*_`"'.!\[\]()]/g, " ").replace(/\s+/g, " ").trim();
  if (/\bdone\b/.test(word) && /\bcontinue\b/.test(word)) return null;
  if (/^(not (yet )?(done|complete|completed|finished)|continue|continued|incomplete|unfinished|reject|rejected|fail|failed|no)\b/.test(word)) return "continue";
  if (/^(done|complete|completed|finished|accept|accepted|pass|passed|yes)\b/.test(word)) return "done";
  return null;
}

const LABEL = (name: string) => new RegExp(`^[\\s>*_#-]*${name}[\\s*_]*(?:[:=\\-–—][\\s*_]*|$)(.*)$`, "i");
const VERDICT_LABEL = LABEL("verdict");
const REASON_LABEL = LABEL("reason");
const EVIDENCE_LABEL = LABEL("evidence");

function fromJson(text: string): ParsedVerdict | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const raw = record["verdict"] ?? record["decision"] ?? record["status"];
  const verdict = typeof raw === "string" ? verdictWord(raw) : null;
  if (verdict === null) return null;
  const reason = typeof record["reason"] === "string" ? record["reason"] : "";
  const ev = record["evidence"] ?? record["quotes"];
  const evidence = (Array.isArray(ev) ? ev : typeof ev === "string" ? ev.split("\n") : []).filter((item): item is string => typeof item === "string");
  return { verdict, reason: reason.trim(), evidence: evidence.map(cleanQuote).filter((q) => q !== "") };
}

function fromTags(text: string): ParsedVerdict | null {
  const verdictTag = /<verdict>\s*([\s\S]*?)\s*<\/verdict>/i.exec(text);
  if (verdictTag === null) return null;
  const verdict = verdictWord(verdictTag[1]!);
  if (verdict === null) return null;
  const reason = /<reason>\s*([\s\S]*?)\s*<\/reason>/i.exec(text)?.[1] ?? "";
  const evidence = [...text.matchAll(/<(?:evidence|quote)>\s*([\s\S]*?)\s*<\/(?:evidence|quote)>/gi)].flatMap((m) => m[1]!.split("\n"));
  return { verdict, reason: reason.trim(), evidence: evidence.map(cleanQuote).filter((q) => q !== "") };
}

function fromLines(text: string): ParsedVerdict | null {
  const lines = text.split("\n").filter((line) => !/^\s*(```|~~~)/.test(line));
  let verdict: "done" | "continue" | null = null;
  let section: "none" | "reason" | "evidence" = "none";
  const reason: string[] = [];
  const evidence: string[] = [];
  for (const line of lines) {
    const v = VERDICT_LABEL.exec(line);
    if (v !== null) {
      verdict ??= verdictWord(v[1]!);
      section = "none";
      continue;
    }
    const r = REASON_LABEL.exec(line);
    if (r !== null) {
      section = "reason";
      if (r[1]!.trim() !== "") reason.push(r[1]!.trim());
      continue;
    }
    const e = EVIDENCE_LABEL.exec(line);
    if (e !== null) {
      section = "evidence";
      if (e[1]!.trim() !== "") evidence.push(e[1]!);
      continue;
    }
    if (section === "reason" && line.trim() !== "") reason.push(line.trim());
    else if (section === "reason") section = "none";
    else if (section === "evidence" && line.trim() !== "") evidence.push(line);
  }
  if (verdict === null) {
    // A bare first line such as "**DONE**" or "Continue." counts as the verdict.
    const first = lines.find((line) => line.trim() !== "");
    if (first !== undefined && first.replace(/[^A-Za-z ]/g, "").trim().split(/\s+/).length <= 3) verdict = verdictWord(first.replace(/^[\s>#*_-]+/, ""));
  }
  if (verdict === null) return null;
  return { verdict, reason: reason.join(" ").trim(), evidence: evidence.map(cleanQuote).filter((q) => q !== "") };
}

/**
 * Reads the reviewer's answer: the labelled form the prompt asks for, with or without markdown,
 * code fences or bold; `<verdict>` tags; or a JSON object. Null when no verdict can be found.
 */
export function parseVerdict(text: string): ParsedVerdict | null {
  return fromLines(text) ?? fromTags(text) ?? fromJson(text);
}

export interface ClaimCheckInput extends ClaimCheckRequestInput {
  /** The run's model; null when there is none (the claim is accepted unchecked). */
  model: ModelClient | null;
  /** `completionCheckMode(process.env.ARMSTUDY_COMPLETION_CHECK)`, read by the caller. */
  mode: CompletionCheckMode;
  signal?: AbortSignal;
}

function unchecked(cause: UncheckedCause, detail: string, extra: Pick<ClaimCheckResult, "request" | "reply"> = {}): ClaimCheckResult {
  return { verdict: "accepted_unchecked", reason: `${cause}: ${detail}`, evidence: [], shield: "not_applied", cause, ...extra };
}

export async function checkClaim(input: ClaimCheckInput): Promise<ClaimCheckResult> {
  if (input.mode === "off") return unchecked("check_off", "the completion check is switched off");
  if (input.model === null) return unchecked("no_model", "no model to check the claim with");
  const request = buildClaimCheckRequest(input);
  let reply: ModelReply;
  try {
    reply = await input.model.complete(request, input.signal);
  } catch (error) {
    // The contract says adapters never throw; a broken one must not end the run either.
    return unchecked("model_error", error instanceof Error ? error.message : String(error), { request });
  }
  if (reply.stop === "error" || reply.stop === "usage_limit" || reply.stop === "aborted") {
    return unchecked("model_error", `${reply.stop}${reply.errorMessage === undefined ? "" : `: ${reply.errorMessage}`}`, { request, reply });
  }
  const parsed = parseVerdict(reply.text);
  if (parsed === null) return unchecked("unreadable_answer", "no verdict found in the answer", { request, reply });
  const reason = parsed.reason === "" ? (parsed.verdict === "done" ? "the reviewer gave no reason" : "the reviewer gave no reason; the claim is not proven") : parsed.reason;
  const shielded = applyEvidenceShield({ ...parsed, reason }, evidenceOutputs(input.view, input.digest?.excludeTools));
  return { ...shielded, request, reply };
}

/** The `claim.check` run-record line for a result (the loop adds `t`). */
export function claimCheckRecord(result: ClaimCheckResult): {
  type: "claim.check";
  verdict: ClaimCheckResult["verdict"];
  reason: string;
  evidence: string[];
  shield: ShieldResult;
} {
  return { type: "claim.check", verdict: result.verdict, reason: result.reason, evidence: [...result.evidence], shield: result.shield };
}
