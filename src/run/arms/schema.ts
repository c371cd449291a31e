/**
 * The schemas of the files in `arms/`: arm.yaml, budgets.yaml and budget-baseline.json. Validated
 * once, at the boundary; the loader turns the first issue into a PackError naming file and field.
 */
import { z } from "zod";
import { SECTION_ID } from "../../core/prompt/front-matter.ts";
import { MAX_TIME_LIMIT_HOURS } from "../../core/limits.ts";

export const ARM_NAME = /^[a-z][a-z0-9-]*$/;
const ARM_NAME_RULE = "must be lower-case letters, digits and dashes, starting with a letter (e.g. old-build)";
const SECTION_ID_RULE = "must be lower-case letters, digits and dashes, starting with a letter";

export const POLICY_NAMES = ["none", "todoGate", "everyReplyCheck", "goal", "workSlice", "loopGuard", "measureLoop", "goalQueue"] as const;
export const AGENT_KINDS = ["armstudy", "codex", "claude", "pi"] as const;

/**
 * An entry of arm.yaml `sections:`. Markdown sections come from `sections/*.md` on their own; an
 * entry adds a render-function section (`builtin:`) or removes an inherited one (`remove: true`).
 */
export const sectionEntrySchema = z.strictObject({
  id: z.string().regex(SECTION_ID, SECTION_ID_RULE),
  builtin: z.string().min(1).optional(),
  remove: z.literal(true).optional(),
  order: z.number().finite().optional(),
  stable: z.boolean().optional(),
  cut: z.enum(["never", "tail"]).optional(),
});
export type SectionEntry = z.infer<typeof sectionEntrySchema>;

const budgetSchema = z.strictObject({
  maxChars: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
});

export const armFileSchema = z.strictObject({
  /** Optional; when present it must equal the folder name. */
  name: z.string().regex(ARM_NAME, ARM_NAME_RULE).optional(),
  description: z.string().optional(),
  extends: z.string().regex(ARM_NAME, ARM_NAME_RULE).optional(),
  agent: z.enum(AGENT_KINDS).optional(),
  /** `{ ref }`: the prompt pack as it stood at a git commit or tag; `arm` reads another arm's pack. */
  prompt: z
    .strictObject({
      // An unquoted hash of digits (or digits around one e) reads as a YAML number, not a string.
      ref: z.string({ error: (issue) => (typeof issue.input === "number" ? "reads as a number: YAML takes a commit hash of digits (or digits and an e) as one; quote it, e.g. ref: \"0123e45\"" : undefined) }).min(1),
      arm: z.string().regex(ARM_NAME, ARM_NAME_RULE).optional(),
    })
    .optional(),
  sections: z.array(sectionEntrySchema).optional(),
  policies: z
    .array(
      z.strictObject({
        name: z.enum(POLICY_NAMES),
        options: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
  goal: z
    .strictObject({
      rounds: z.number().int().positive().optional(),
      hours: z.number().positive().max(MAX_TIME_LIMIT_HOURS, "must be at most 24 hours").optional(),
    })
    .optional(),
  /** `plan`: a plan run (ADR 0104) — read-only tools, the reply classified, one repair turn. Default `work`. */
  mode: z.enum(["work", "plan"]).optional(),
  /** Plan runs only: `noPlan: valid` (ADR-0077, default) or `repair` (the earlier rule: a block is required). */
  plan: z.strictObject({ noPlan: z.enum(["valid", "repair"]).optional() }).optional(),
  /** Context management (ADR 0103): `off`, `on`, `auto`, or the settings with a mode. */
  context: z
    .union([
      z.enum(["auto", "on", "off"]),
      z.strictObject({
        mode: z.enum(["auto", "on", "off"]).default("auto"),
        window: z.number().int().positive().optional(),
        threshold: z.number().gt(0).max(1).optional(),
        keepToolResults: z.number().int().nonnegative().optional(),
        keepMessages: z.number().int().positive().optional(),
        maxPerReply: z.number().int().positive().optional(),
      }),
    ])
    .optional(),
});
export type ArmFile = z.infer<typeof armFileSchema>;

export const budgetsFileSchema = z.strictObject({
  /** How much the stable prefix may grow against the baseline, in percent of o200k tokens. */
  growth: z.strictObject({ maxPercent: z.number().nonnegative() }).optional(),
  /** A limit on every arm's stable prefix. */
  prefix: budgetSchema.optional(),
  /** Per-section limits, by section id, for every arm that has the section. */
  sections: z.record(z.string(), budgetSchema).optional(),
  /** Per-arm overrides: `arms.<name>.sections.<id>` and `arms.<name>.prefix`. */
  arms: z
    .record(
      z.string(),
      z.strictObject({
        prefix: budgetSchema.optional(),
        sections: z.record(z.string(), budgetSchema).optional(),
      }),
    )
    .optional(),
});
export type BudgetsFile = z.infer<typeof budgetsFileSchema>;

/** Field names per object, for "unknown field" messages. */
export function knownFields(path: string): readonly string[] | undefined {
  const last = path.split(".").filter((part) => !/^\d+$/.test(part)).pop() ?? "";
  switch (last) {
    case "":
      return Object.keys(armFileSchema.shape);
    case "sections":
      return Object.keys(sectionEntrySchema.shape);
    case "policies":
      return ["name", "options"];
    case "goal":
      return ["rounds", "hours"];
    case "prompt":
      return ["ref", "arm"];
    case "plan":
      return ["noPlan"];
    case "context":
      return ["mode", "window", "threshold", "keepToolResults", "keepMessages", "maxPerReply"];
    default:
      return undefined;
  }
}

export function knownBudgetFields(path: string): readonly string[] | undefined {
  const parts = path.split(".");
  if (path === "") return Object.keys(budgetsFileSchema.shape);
  if (parts[0] === "growth") return ["maxPercent"];
  if (parts[0] === "arms" && parts.length === 2) return ["prefix", "sections"];
  return ["maxChars", "maxTokens"];
}
