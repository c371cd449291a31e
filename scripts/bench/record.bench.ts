/**
 * Run-record I/O: the streaming reader against reading the whole file and splitting it (its peer,
 * which holds the record in memory twice), and the per-event writer against one writeFile of the
 * same lines (no per-event flush). Prints events/s and the ratios. `npm run bench -- record`
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import { RunEvent } from "../../src/run/record.ts";
import { readRecord } from "../../src/run/record-reader.ts";
import { RecordWriter, serializeEvent } from "../../src/run/record-writer.ts";

const EVENTS = 20_000;
const dir = mkdtempSync(join(tmpdir(), "armstudy-bench-record-"));
const path = join(dir, "run.jsonl");

const events: RunEvent[] = Array.from({ length: EVENTS }, (_, i): RunEvent => {
  switch (i % 4) {
    case 0:
      return { t: i, type: "tool.call", id: `call_${i}`, name: "shell", arguments: { command: `npm test -- --run case${i}` } };
    case 1:
      return { t: i, type: "tool.result", id: `call_${i - 1}`, name: "shell", ok: i % 3 === 0, exitCode: 0, output: `PASS case ${i}\n`.repeat(20) };
    case 2:
      return { t: i, type: "model.request", round: i, input: 12_000 + i, cachedInput: 10_000, output: 300, reasoning: 80, usageSource: "reported", durationMs: 900, purpose: "agent" };
    default:
      return { t: i, type: "assistant.text", text: `Step ${i} done — checks green ✅.`, final: false };
  }
});
const lines = events.map((event) => serializeEvent(event)).join("");
writeFileSync(path, lines);

const bench = new Bench({ iterations: 10, warmupIterations: 2, time: 0 });
bench
  .add("readRecord (streaming, bounded)", async () => {
    let n = 0;
    for await (const _ of readRecord(path)) n += 1;
    if (n !== EVENTS) throw new Error(`read ${n}`);
  })
  .add("peer: readFile + split + parse", async () => {
    const text = await readFile(path, "utf8");
    let n = 0;
    for (const line of text.split("\n")) {
      if (line.length === 0) continue;
      if (RunEvent.safeParse(JSON.parse(line)).success) n += 1;
    }
    if (n !== EVENTS) throw new Error(`read ${n}`);
  })
  .add("RecordWriter (one OS write per event)", async () => {
    const writer = await RecordWriter.open(join(dir, "w1.jsonl"));
    for (const event of events) await writer.write(event);
    await writer.close();
  })
  .add("peer: serialize all + one writeFile", async () => {
    await writeFile(join(dir, "w2.jsonl"), events.map((event) => serializeEvent(event)).join(""));
  });

await bench.run();
const mean = (name: string): number => {
  const task = bench.tasks.find((t) => t.name === name);
  const result = task?.result as { latency?: { mean: number } } | undefined;
  return result?.latency?.mean ?? Number.NaN;
};
const rows = bench.tasks.map((task) => ({ task: task.name, "ms/run": mean(task.name).toFixed(1), "events/s": Math.round(EVENTS / (mean(task.name) / 1000)) }));
console.table(rows);
console.log(`reader: streaming / peer time = ${(mean("readRecord (streaming, bounded)") / mean("peer: readFile + split + parse")).toFixed(2)}×`);
console.log(`writer: per-event / one writeFile time = ${(mean("RecordWriter (one OS write per event)") / mean("peer: serialize all + one writeFile")).toFixed(2)}×`);
console.log(`file: ${EVENTS} events, ${(Buffer.byteLength(lines) / 1024 / 1024).toFixed(1)} MiB`);
rmSync(dir, { recursive: true, force: true });
