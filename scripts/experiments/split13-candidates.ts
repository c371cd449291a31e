/**
 * Held-out split 13 (docs/decisions/0247), step 1: the candidate final replies of each source group, read from bare git
 * snapshots by each format's final-reply rule (fixtures/final-replies/SOURCES.md) and filtered exactly as split 12 was (0240):
 * split 11's filters (0228) plus split 12's two form rules (`english`, `clientError`), all written and committed before any
 * split-13 candidate was read. It prints only counts. Writes one JSON list of candidates; split13-draw.ts draws from it.
 * Reads no labels, runs no analyzer.
 *
 *   npx tsx scripts/experiments/split13-candidates.ts <groups.json> <out.json>
 *
 * groups.json: as split12-candidates.ts (kinds "entire-branch", "entire-refs", "entire-all", "claude-terminal", "claude-jsonl").
 */
import { writeCandidates } from "./split11-candidates.ts";
import { split12Form } from "./split12-candidates.ts";

writeCandidates("split13-candidates.ts", split12Form);
