/**
 * The command table. Each entry loads its module on demand, so `armstudy budget` does not pay for
 * the study runner's imports. Add one line per command.
 */
import type { Command } from "./command.ts";

export const COMMANDS: Record<string, () => Promise<Command>> = {
  analyze: async () => (await import("./commands/analyze.ts")).default,
  budget: async () => (await import("./commands/budget.ts")).default,
  compare: async () => (await import("./commands/compare.ts")).default,
  envelope: async () => (await import("./commands/envelope.ts")).default,
  gate: async () => (await import("./commands/gate.ts")).default,
  intent: async () => (await import("./commands/intent.ts")).default,
  merge: async () => (await import("./commands/merge.ts")).default,
  persona: async () => (await import("./commands/persona.ts")).default,
  plan: async () => (await import("./commands/plan.ts")).default,
  power: async () => (await import("./commands/power.ts")).default,
  prompt: async () => (await import("./commands/prompt.ts")).default,
  report: async () => (await import("./commands/report.ts")).default,
  run: async () => (await import("./commands/run.ts")).default,
  study: async () => (await import("./commands/study.ts")).default,
  view: async () => (await import("./commands/view.ts")).default,
};
