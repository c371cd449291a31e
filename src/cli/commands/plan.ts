/**
 * `armstudy plan classify [FILE|-] [--json]`: the ADR-0077 outcome of one plan-run reply.
 * Logic: src/core/plan. An `invalid` reply is a result (exit 0); only unreadable input exits 2.
 */
import { PLAN_RULES, classifyPlanReply, type PlanResult } from "../../core/plan/classify.ts";
import { planRepairInstruction } from "../../core/plan/repair.ts";
import { parseCommandArgs, readReply } from "../args.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";

const USAGE = `armstudy plan classify [FILE|-] [--json]

Classifies a plan run's reply (read from FILE, or standard input when FILE is - or absent) as
plan_ready, blocked, no_plan or invalid, per ADR-0077: only <proposed_plan> / <plan_blocked> tags
outside fenced and inline code count. Prints the outcome, the block's content or the rule that
failed, and for invalid the one repair instruction; --json prints the result object.
Exit 0 for every outcome; 2 when the input cannot be read.`;

const indent = (text: string): string => text.replace(/^(?=.)/gm, "  ");

function renderResult(result: PlanResult): string {
  const lines = [`outcome: ${result.outcome}`];
  if (result.plan !== undefined) lines.push("plan:", indent(result.plan));
  if (result.blocked !== undefined) lines.push("blocked:", indent(result.blocked));
  if (result.reason !== undefined) {
    lines.push(`reason: ${result.reason} (${PLAN_RULES[result.reason]})`);
    lines.push("repair instruction:", indent(planRepairInstruction(result) ?? ""));
  }
  return `${lines.join("\n")}\n`;
}

const command: Command = {
  name: "plan",
  summary: "Classify a plan run's reply: plan_ready, blocked, no_plan or invalid (ADR-0077)",
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCommandArgs({ args, allowPositionals: true, strict: true, options: { json: { type: "boolean", default: false } } }, USAGE);
    const [action, file, ...extra] = parsed.positionals;
    if (action !== "classify") {
      throw new UsageError(`${action === undefined ? "name an action" : `unknown action "${action}"`}: the only action is classify\nusage: ${USAGE}`);
    }
    if (extra.length > 0) throw new UsageError(`classify reads one reply; got ${extra.length + 1} files\nusage: ${USAGE}`);
    const result = classifyPlanReply(await readReply(file, io));
    io.stdout(parsed.values.json ? `${JSON.stringify(result, null, 2)}\n` : renderResult(result));
    return 0;
  },
};

export default command;
