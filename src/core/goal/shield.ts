/**
 * The evidence shield. A `done` verdict must quote at least one piece of evidence that appears
 * verbatim (whitespace-normalised) in a tool result of the transcript; otherwise it becomes
 * `continue` with the reason "evidence not found". A reviewer that rubber-stamps a claim without
 * pointing at real output cannot complete a goal.
 * See docs/decisions/0023-evidence-shield.md.
 */
import { unescapeXml } from "./template.ts";

/** A quote shorter than this (after normalising) proves nothing: "ok" or "0" is in every log. */
export const MIN_EVIDENCE_CHARS = 12;

export const EVIDENCE_NOT_FOUND = "evidence not found";

export type ShieldResult = "passed" | "rejected" | "not_applied";

/** Collapses every run of whitespace to one space and trims. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Undoes what a reviewer adds around a quote: markdown quote marks, bullets, quotes, backticks, entities. */
export function cleanQuote(quote: string): string {
  let text = unescapeXml(quote).trim();
  text = text.replace(/^(?:>\s*|[-*•]\s+|\d+[.)]\s+)+/, "");
  for (let i = 0; i < 3; i++) {
    const stripped = text.replace(/^(["'`“‘]+)([\s\S]*?)(["'`”’]+)$/, "$2").trim();
    if (stripped === text) break;
    text = stripped;
  }
  return normalizeWhitespace(text);
}

/**
 * True when the quote appears in one of the outputs. A quote elided with "..." or "…" matches
 * when its parts appear in that order in the same output.
 */
export function quoteFound(quote: string, outputs: readonly string[]): boolean {
  return foundIn(quote, outputs.map(normalizeWhitespace));
}

/** `quoteFound` over outputs already whitespace-normalised (the shield normalises them once). */
function foundIn(quote: string, normalizedOutputs: readonly string[]): boolean {
  const cleaned = cleanQuote(quote);
  const parts = cleaned
    .split(/\s*(?:\.\.\.|…)\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (parts.join("").replace(/\s/g, "").length < MIN_EVIDENCE_CHARS) return false;
  return normalizedOutputs.some((haystack) => {
    let from = 0;
    for (const part of parts) {
      const at = haystack.indexOf(part, from);
      if (at < 0) return false;
      from = at + part.length;
    }
    return true;
  });
}

export interface ShieldInput {
  verdict: "done" | "continue";
  reason: string;
  evidence: readonly string[];
}

export interface ShieldOutput {
  verdict: "done" | "continue";
  reason: string;
  evidence: string[];
  shield: ShieldResult;
}

/** Applies the shield to a parsed verdict; `continue` passes through untouched. */
export function applyEvidenceShield(input: ShieldInput, toolOutputs: readonly string[]): ShieldOutput {
  const evidence = [...input.evidence];
  if (input.verdict === "continue") return { verdict: "continue", reason: input.reason, evidence, shield: "not_applied" };
  const normalized = toolOutputs.map(normalizeWhitespace);
  if (evidence.some((quote) => foundIn(quote, normalized))) return { verdict: "done", reason: input.reason, evidence, shield: "passed" };
  return { verdict: "continue", reason: EVIDENCE_NOT_FOUND, evidence, shield: "rejected" };
}
