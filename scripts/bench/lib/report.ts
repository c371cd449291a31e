/**
 * What every benchmark prints (ADR 0088): the machine it ran on and its load, then markdown rows
 * of figure, goal, whether the goal was met, and the peer measured in the same run. `npm run
 * bench -- --write NAME` copies this output into NAME's section of docs/performance.md.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";

/** Process CPU time in ms: on a shared machine wall time mostly measures the neighbours. */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The CPU ms of `f`, median of `runs` after `warmups`, with `before` run (untimed) each time. */
export function cpuMedian(f: () => void, runs: number, warmups = 1, before?: () => void): number {
  for (let i = 0; i < warmups; i += 1) {
    before?.();
    f();
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    before?.();
    const start = cpuNow();
    f();
    times.push(cpuNow() - start);
  }
  return median(times);
}

/** "load average 3.1 / 2.8 / 2.0 (1/5/15 min) on 2 cores, Node v20…, commit abc1234". */
export function machineLine(): string {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(1));
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // not a checkout: say so
  }
  return `Load average ${one} / ${five} / ${fifteen} (1 / 5 / 15 min) on ${cpus().length} cores, Node ${process.version}, commit ${commit}, ${new Date().toISOString().slice(0, 16)} UTC.`;
}

export interface Row {
  figure: string;
  value: string;
  goal?: string;
  /** True when the goal is met; omitted when the row has no goal. */
  met?: boolean;
  peer?: string;
}

export function table(rows: readonly Row[]): string {
  const lines = ["| figure | value | goal | | peer in the same run |", "|---|---:|---|---|---|"];
  for (const row of rows) {
    const verdict = row.met === undefined ? "" : row.met ? "met" : "**missed**";
    lines.push(`| ${row.figure} | ${row.value} | ${row.goal ?? ""} | ${verdict} | ${row.peer ?? ""} |`);
  }
  return lines.join("\n");
}

export const ms = (value: number, digits = 1): string => `${value.toFixed(digits)} ms`;
