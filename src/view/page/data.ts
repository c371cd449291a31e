/**
 * The data a viewer page carries, shared by the node side that writes it (src/view/page-data.ts)
 * and the browser code that reads it. Types only, plus the ids of the script elements: this file
 * is imported on both sides, so it holds no DOM and no node code.
 */
import type { RunEvent } from "../../run/record.ts";

/** The `<script type="application/json">` that holds the page's index. */
export const INDEX_ELEMENT_ID = "armstudy-index";
/** Each run's payload is a `<script type="application/octet-stream">` with this id prefix + its key. */
export const PAYLOAD_ELEMENT_PREFIX = "armstudy-run-";

/** A run's key in the page (its payload's id): `arm/index`, or `task/arm/index` in a suite. */
export function runKey(run: { arm: string; runIndex: number; task?: string | null }): string {
  return run.task ? `${run.task}/${run.arm}/${run.runIndex}` : `${run.arm}/${run.runIndex}`;
}

/** Flags a person filters runs by. Each is false when the result does not carry the field. */
export interface RunFlags {
  falseCompletion: boolean;
  permissionStop: boolean;
  /** A harness error (`error` set, or status `error`). */
  error: boolean;
  /** The grader found the checks changed by the agent (task suites record `tampered`). */
  tampered: boolean;
  /** The run stopped on a limit: rounds, wall time, tokens or cost. */
  hitCap: boolean;
}

/** One run in the page's index: enough for the run list and the filters, without its record. */
export interface RunEntry {
  /** Unique within the page: `arm/index` for a study, `session` for a session. */
  key: string;
  arm: string;
  runIndex: number;
  /** The task a suite run belongs to, when the result names one. */
  task: string | null;
  status: string;
  reason: string | null;
  flags: RunFlags;
  checks: { passed: number; failed: number };
  toolCalls: number;
  tokens: number;
  wallMs: number;
  firstReportLine: string | null;
}

export interface ArmEntry {
  name: string;
  description: string;
  agent: string;
  model: string;
  testDouble: boolean;
  control: string;
  prefix: { hash: string; tokens: number; chars: number; sections: Array<{ id: string; chars: number; tokens: number }> | null } | null;
}

/** One line of the at-a-glance table, per arm (rates as runs where it happened / runs). */
export interface GlanceRow {
  arm: string;
  control: string;
  n: number;
  allChecksPassed: number;
  falseCompletion: number;
  permissionStop: number;
  checksPassedMean: number | null;
  toolCallsMean: number | null;
  tokensMean: number | null;
}

export interface PageIndex {
  schema: "armstudy.view/1";
  kind: "study" | "session";
  title: string;
  description: string;
  /** The sandbox the study's runs had, as study.json states it; null when it does not say. */
  sandbox: string | null;
  /** True when any run used the scripted test double: the page says so on top. */
  testDouble: boolean;
  checks: string[];
  arms: ArmEntry[];
  glance: GlanceRow[];
  runs: RunEntry[];
  warnings: string[];
}

/** Everything the run page shows about one run, decoded when the run is opened. */
export interface RunPayload {
  events: RunEvent[];
  /** The record reader's warnings (bad lines), shown above the timeline. */
  warnings: string[];
  acceptance: Array<{ id: string; command: string; passed: boolean; exitCode: number | null; timedOut: boolean; durationMs: number; output: string }>;
  patch: string | null;
  /** Sub-agent records (Claude Code), by the `ref` their `subagent` event names. */
  subagents: Array<{ ref: string; events: RunEvent[] }>;
}
