/**
 * Held-out split 13 (docs/decisions/0247), step 2: the draw, as split12-draw.ts. Each group's candidates (split13-candidates.ts,
 * already sorted by ref, path and line) are shuffled with ONE mulberry32(20261229) stream taken over the groups in order
 * (Fisher–Yates, as test/core/report/split.ts draws a split), and the first `take` of each are kept. Writes the reply files
 * 3600– byte for byte and prints their SOURCES.md rows. Reads no labels and runs no analyzer.
 *
 *   npx tsx scripts/experiments/split13-draw.ts scripts/experiments/split13-groups.json <candidates.json> > rows.md
 */
import { drawReplies } from "./split11-draw.ts";

drawReplies({ script: "split13-draw.ts", seed: 20261229, first: 3600, last: 3799 });
