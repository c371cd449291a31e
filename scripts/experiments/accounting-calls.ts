/**
 * What each outer call into the request counter costs inside a run (ADR 0199): the accounting
 * bench's sets (lib/accounting-workload.ts), with every outer call of the loop and the test double
 * timed by performance.now() and tallied by who made it (the loop's request, carrying the
 * history's mark; the double's request, without one; the double's reply; the loop's reply, which
 * carries a stop reason), and the text counter's calls by hit or miss (characters of the misses:
 * the set's new text). Wall time, so a call preempted or paused by a collection reads long: each
 * row gives the sum, the sum with every call capped at 30 µs, and the 50th/90th/99th percentiles.
 * With a base tree (e.g. main's, as accounting-ab.ts takes it) its counter and this tree's alternate
 * set by set. No verdict and no profiler: the goal's figure is `npm run bench -- accounting`.
 *
 *   node --import tsx scripts/experiments/accounting-calls.ts [sets, default 4] [BASE_TREE]
 */
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ModelReply, ModelRequest } from "../../src/core/model.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { RequestTokenCounter, type HistoryMark } from "../../src/run/agent-tokens.ts";
import { runs } from "../bench/lib/accounting-workload.ts";

const [setsArg, baseDir] = process.argv.slice(2);
const sets = Number(setsArg ?? 4);

interface Side {
  name: string;
  Text: typeof TokenCounter;
  Request: typeof RequestTokenCounter;
  /** Per set: each row's call times in µs. */
  rows: Map<string, number[]>[];
  cpu: number[];
}

const sides: Side[] = [{ name: "this tree", Text: TokenCounter, Request: RequestTokenCounter, rows: [], cpu: [] }];
if (baseDir !== undefined) {
  const base = resolve(baseDir);
  const load = async (file: string) => (await import(pathToFileURL(join(base, file)).href)) as Record<string, unknown>;
  sides.unshift({ name: `base ${base}`, Text: (await load("src/core/tokens.ts"))["TokenCounter"] as typeof TokenCounter, Request: (await load("src/run/agent-tokens.ts"))["RequestTokenCounter"] as typeof RequestTokenCounter, rows: [], cpu: [] });
}

/** A side's counters with every outer call timed into `rows` (a call inside another is not). */
function timedCounters(side: Side, rows: Map<string, number[]>): RequestTokenCounter {
  const tally = (row: string, micros: number) => {
    const list = rows.get(row);
    if (list === undefined) rows.set(row, [micros]);
    else list.push(micros);
  };
  let depth = 0;
  const time = <T>(row: () => string, f: () => T): T => {
    if (depth > 0) return f();
    depth += 1;
    const start = performance.now();
    try {
      return f();
    } finally {
      tally(row(), (performance.now() - start) * 1000);
      depth -= 1;
    }
  };
  class Text extends side.Text {
    override count(text: string): number {
      const misses = this.stats().misses;
      const start = performance.now();
      const tokens = super.count(text);
      const micros = (performance.now() - start) * 1000;
      const missed = this.stats().misses > misses;
      tally(missed ? "text counter: miss" : "text counter: hit", micros);
      if (missed) tally("new text (characters)", text.length);
      return tokens;
    }
  }
  class Request extends side.Request {
    override request(request: ModelRequest, mark?: HistoryMark): number {
      return time(
        () => (mark === undefined ? "double's request" : "loop's request"),
        () => super.request(request, mark),
      );
    }
    override reply(reply: Pick<ModelReply, "text" | "toolCalls">): number {
      return time(
        () => ("stop" in reply ? "loop's reply" : "double's reply"),
        () => super.reply(reply),
      );
    }
  }
  return new Request(new Text());
}

// A warm-up set a side, then the sets, the first of each pair swapped every pair.
for (let set = 0; set <= sets; set += 1) {
  for (const side of set % 2 === 0 ? sides : [...sides].reverse()) {
    const rows = new Map<string, number[]>();
    const counter = timedCounters(side, rows);
    const result = await runs(counter, counter);
    if (set === 0) continue;
    side.rows.push(rows);
    side.cpu.push(result.cpu);
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
const percentile = (sorted: readonly number[], p: number): number => sorted[Math.floor(p * (sorted.length - 1))] ?? Number.NaN;
for (const side of sides) {
  console.log(`${side.name}: ${side.rows.length} sets, this process's CPU a set (median) ${median(side.cpu).toFixed(0)} ms`);
  const names = [...new Set(side.rows.flatMap((rows) => [...rows.keys()]))];
  const callRows = names.filter((name) => !name.startsWith("text counter") && !name.startsWith("new text"));
  const totals = side.rows.map((rows) => callRows.reduce((sum, name) => sum + (rows.get(name) ?? []).reduce((a, b) => a + b, 0), 0) / 1000);
  const capped = side.rows.map((rows) => callRows.reduce((sum, name) => sum + (rows.get(name) ?? []).reduce((a, b) => a + Math.min(b, 30), 0), 0) / 1000);
  console.log(`  all outer calls: ${median(totals).toFixed(2)} ms a set (median; sets ${totals.map((t) => t.toFixed(1)).join(", ")}), capped at 30 µs ${median(capped).toFixed(2)} ms, ${((100 * median(totals.map((t, i) => t / (side.cpu[i] as number)))) as number).toFixed(2)} % of the set's CPU`);
  for (const name of names) {
    const perSet = side.rows.map((rows) => rows.get(name) ?? []);
    if (name === "new text (characters)") {
      console.log(`  ${name}: ${median(perSet.map((list) => list.reduce((a, b) => a + b, 0)))} a set in ${median(perSet.map((list) => list.length))} texts`);
      continue;
    }
    const all = perSet.flat().sort((a, b) => a - b);
    const sum = median(perSet.map((list) => list.reduce((a, b) => a + b, 0) / 1000));
    const sumCapped = median(perSet.map((list) => list.reduce((a, b) => a + Math.min(b, 30), 0) / 1000));
    console.log(
      `  ${name}: ${median(perSet.map((list) => list.length))} calls a set, ${sum.toFixed(2)} ms (capped ${sumCapped.toFixed(2)}); µs p50 ${percentile(all, 0.5).toFixed(1)}, p90 ${percentile(all, 0.9).toFixed(1)}, p99 ${percentile(all, 0.99).toFixed(1)}`,
    );
  }
}
