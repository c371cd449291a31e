/**
 * Held-out split 12 (docs/decisions/0240), step 1: the candidate final replies of each source group, read from bare git
 * snapshots by each format's final-reply rule (fixtures/final-replies/SOURCES.md), filtered as split 11 was (0228) plus one
 * more form rule written before any candidate was read: the text outside fences must read as English by a count of English
 * function words (`english`), so a Latin-script reply in another language is not a candidate. split11-candidates.ts's readers and
 * writer with that rule; it prints only counts. Writes one JSON list of candidates; split12-draw.ts draws from it. Reads no labels, runs no analyzer.
 *
 *   npx tsx scripts/experiments/split12-candidates.ts <groups.json> <out.json>
 *
 * groups.json: [{ "group", "repo", "gitDir", "kind", "agent"?, "licence" }] in the draw's order. Kinds:
 * "entire-branch" (Entire transcripts on entire/checkpoints/v1), "entire-refs" (on refs/entire/checkpoints/…), "entire-all" (both),
 * "claude-terminal" (Claude Code's terminal transcripts, saved with /export or copied from the terminal, at HEAD),
 * "claude-jsonl" (Claude Code session JSONL files at HEAD, `files` a regular expression over the path).
 */
import { resolve } from "node:path";
import { machineOutput, outsideFences, writeCandidates } from "./split11-candidates.ts";

const ENGLISH_WORDS = new Set(["the", "and", "to", "of", "is", "are", "was", "for", "with", "it", "this", "that", "you", "be", "not", "as", "at", "by", "from", "have", "has", "can", "will", "now", "all", "or", "an", "i", "so", "if", "but", "which", "what", "there", "should", "would", "into", "when", "your", "we"]);

/**
 * Written before any candidate of split 12 was read (0240): a reply reads as English when, outside fences, it has at least
 * 5 words and at least 12 % of its words (runs of a–z letters, lower-cased) are English function words. English prose runs at
 * 25–40 %; Spanish, German, Portuguese, Turkish or French prose shares few of these words, so it falls under.
 */
export function english(text: string): boolean {
  const words = outsideFences(text).toLowerCase().match(/[a-z]+/g) ?? [];
  if (words.length < 5) return false;
  return words.filter((word) => ENGLISH_WORDS.has(word)).length / words.length >= 0.12;
}

/** Written before any candidate was read (0240): a client's error line standing in for the reply is not the agent's reply. */
export function clientError(text: string): boolean {
  return /^(API Error\b|Prompt is too long|Credit balance is too low|Request timed out|Error: )/.test(text.trimStart());
}

/** Split 12's form rules whole (0240): split 11's (a reply that is one JSON document is machine output) and the two above. */
export function split12Form(text: string): boolean {
  return !machineOutput(text) && english(text) && !clientError(text);
}

// Run as a command, not when split13-candidates.ts imports the form rules.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) writeCandidates("split12-candidates.ts", split12Form);
