/**
 * Held-out split 10 (docs/decisions/0223), step 1: the candidate final replies of each source group, read from bare git
 * snapshots by each format's final-reply rule (fixtures/final-replies/SOURCES.md), filtered as split 9 was (0215) and by
 * nothing more. split11-candidates.ts's readers and writer with no form rule of its own: split 11's machine-output rule (0228)
 * came after split 10. Its groups are "entire-branch" and "claude-terminal" ones and each Entire group names its agent
 * (Claude Code or Codex), so the readers split 11 added (Oh My Pi, OpenCode, "entire-all", "claude-jsonl") read nothing here.
 * Writes one JSON list of candidates; split10-draw.ts draws from it. Reads no labels and runs no analyzer.
 *
 *   npx tsx scripts/experiments/split10-candidates.ts <groups.json> <out.json>
 *
 * groups.json: [{ "group", "repo", "gitDir", "kind", "agent"?, "licence" }] in the draw's order. Kinds:
 * "entire-branch" (Entire transcripts on entire/checkpoints/v1), "entire-refs" (on refs/entire/checkpoints/…),
 * "claude-terminal" (Claude Code's terminal transcripts, saved with /export or copied from the terminal, at HEAD).
 */
import { writeCandidates } from "./split11-candidates.ts";

writeCandidates("split10-candidates.ts", () => true);
