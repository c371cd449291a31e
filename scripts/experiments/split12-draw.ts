/**
 * Held-out split 12 (docs/decisions/0240), step 2: the draw, as split11-draw.ts. Each group's candidates (split12-candidates.ts,
 * already sorted by ref, path and line) are shuffled with ONE mulberry32(20261227) stream taken over the groups in order
 * (Fisher–Yates, as test/core/report/split.ts draws a split), and the first `take` of each are kept. Writes the reply files
 * 3400– byte for byte and prints their SOURCES.md rows. Reads no labels and runs no analyzer.
 *
 *   npx tsx scripts/experiments/split12-draw.ts scripts/experiments/split12-groups.json <candidates.json> > rows.md
 */
import { drawReplies } from "./split11-draw.ts";

drawReplies({ script: "split12-draw.ts", seed: 20261227, first: 3400, last: 3599 });
