/**
 * Held-out split 10 (docs/decisions/0223), step 2: the draw. Each group's candidates (split10-candidates.ts, already sorted
 * by path and line) are shuffled with ONE mulberry32(20261223) stream taken over the groups in order (Fisher–Yates, as
 * test/core/report/split.ts draws a split), and the first `take` of each are kept. Writes the reply files 3000– byte for
 * byte and prints their SOURCES.md rows. Reads no labels and runs no analyzer. split11-draw.ts's draw with split 10's seed
 * and numbers (no Entire group of split 10 sets `format`, so its rows name the format as split 10's own draw did).
 *
 *   npx tsx scripts/experiments/split10-draw.ts scripts/experiments/split10-groups.json <candidates.json> > rows.md
 */
import { drawReplies } from "./split11-draw.ts";

drawReplies({ script: "split10-draw.ts", seed: 20261223, first: 3000, last: 3199 });
