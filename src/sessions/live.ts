/**
 * The importers' mapping, for a live driver: the same format mappers read a client's stdout one
 * line at a time as it runs, timed by the run's clock instead of the log's timestamps. The study
 * layer passes `liveMapper` to the drivers in src/run/drivers.
 */
import { processTokenCounter } from "../core/tokens.ts";
import type { StreamMapper, StreamMapperFactory } from "../run/drivers/contract.ts";
import { RecordBuilder } from "./builder.ts";
import type { MapperContext } from "./format.ts";
import { formatSpec, isSessionFormat } from "./import.ts";

export const liveMapper: StreamMapperFactory = (format, init): StreamMapper => {
  if (!isSessionFormat(format)) throw new Error(`liveMapper: unknown stream format ${JSON.stringify(format)}`);
  const spec = formatSpec(format);
  const builder = new RecordBuilder({ source: spec.source, start: init.start, clock: init.clock, counter: processTokenCounter() });
  const context: MapperContext = { warn: (lineNo, text) => builder.note("warning", `line ${lineNo}: ${text}`) };
  const mapper = spec.create(builder, context);
  builder.time(undefined);
  // The prompt is ours when the stream does not carry it (codex exec, claude -p).
  if (!spec.promptInStream) builder.userMessage(init.handoff, "handoff");
  let lineNo = 0;
  return {
    async line(text) {
      lineNo += 1;
      if (text.trim().length === 0) return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        // Clients print the odd plain line on stdout; keep it as a warning, not an event.
        context.warn(lineNo, `not a JSON event: ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}`);
        return;
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        context.warn(lineNo, "a JSON value that is not an object; skipped");
        return;
      }
      try {
        await mapper.line(value as Record<string, unknown>, lineNo);
      } catch (error) {
        context.warn(lineNo, `could not be read (${error instanceof Error ? error.message : String(error)}); skipped`);
      }
    },
    async finish(end) {
      builder.time(undefined);
      builder.endWith(end);
      await mapper.end();
    },
    drain: () => builder.drain(),
  };
};
