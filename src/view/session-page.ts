/**
 * A single run's viewer page: an imported Codex, Claude Code or pi session, or any run record.
 * The page is the study's run page with one run; a Claude Code session's sub-agents are read from
 * the files beside it and shown as nested timelines inside their `subagent` steps.
 */
import { basename, dirname, join } from "node:path";
import type { RunEvent } from "../run/record.ts";
import type { SessionFormat } from "../sessions/format.ts";
import { importSessionFile } from "../sessions/import.ts";
import type { PageIndex, RunEntry, RunPayload } from "./page/data.ts";
import { readEvents } from "./page-data.ts";

export const SESSION_KEY = { arm: "session", runIndex: 0 } as const;

function sessionEntry(events: readonly RunEvent[]): RunEntry {
  let tokens = 0;
  let toolCalls = 0;
  let status = "unknown";
  let reason: string | null = null;
  let wallMs = 0;
  let lastText: string | null = null;
  for (const event of events) {
    if (event.type === "model.request") tokens += event.input + event.output;
    else if (event.type === "tool.call") toolCalls += 1;
    else if (event.type === "assistant.text" && event.final) lastText = event.text;
    else if (event.type === "run.end") {
      status = event.status;
      reason = event.reason ?? null;
      wallMs = event.wallMs;
      if (event.usage) tokens = event.usage.input + event.usage.output;
    }
  }
  return {
    key: `${SESSION_KEY.arm}/${SESSION_KEY.runIndex}`,
    ...SESSION_KEY,
    task: null,
    status,
    reason,
    flags: { falseCompletion: false, permissionStop: false, error: status === "error", tampered: false, hitCap: false },
    checks: { passed: 0, failed: 0 },
    toolCalls,
    tokens,
    wallMs,
    firstReportLine: lastText === null ? null : (lastText.split("\n").find((line) => line.trim().length > 0)?.trim() ?? null),
  };
}

export function sessionPage(title: string, description: string, events: RunEvent[], warnings: string[], subagents: RunPayload["subagents"]): { index: PageIndex; payload: RunPayload } {
  const start = events.find((event) => event.type === "run.start");
  const testDouble = start?.type === "run.start" && start.testDouble;
  return {
    index: { schema: "armstudy.view/1", kind: "session", sandbox: null, title, description, testDouble, checks: [], arms: [], glance: [], runs: [sessionEntry(events)], warnings: [] },
    payload: { events, warnings, acceptance: [], patch: null, subagents },
  };
}

/** The page of a recorded session file (any format the importers read). */
export async function sessionFilePage(path: string, format: SessionFormat | "auto" = "auto"): Promise<{ index: PageIndex; payload: RunPayload }> {
  const session = await importSessionFile(path, { format });
  const subagents: RunPayload["subagents"] = [];
  const folder = join(dirname(path), basename(path).replace(/\.jsonl$/, ""));
  for (const event of session.events) {
    if (event.type !== "subagent" || subagents.some((sub) => sub.ref === event.ref)) continue;
    try {
      const sub = await importSessionFile(join(folder, event.ref), { format: "claude", subagents: false });
      subagents.push({ ref: event.ref, events: sub.events });
    } catch {
      // A sub-agent file that is gone or unreadable: its step says it is not in the page.
    }
  }
  const start = session.events.find((event) => event.type === "run.start");
  const source = start?.type === "run.start" ? start.source : session.format;
  return sessionPage(`Session ${basename(path)}`, `${source} session (${session.format}), ${session.events.length} events`, session.events, [], subagents);
}

/** The page of a run record (`record.jsonl`, or what `analyze --record` wrote). */
export async function recordFilePage(path: string): Promise<{ index: PageIndex; payload: RunPayload }> {
  const { events, warnings } = await readEvents(path);
  return sessionPage(`Run record ${basename(path)}`, `${events.length} events`, events, warnings, []);
}
