/**
 * The question a study answers, stated in the study file before any run: the decision it informs
 * (`decision:`), the hypothesis in words, the primary metric with its direction, the smallest
 * difference that matters and alpha, and optional secondary metrics. Validated here like every
 * other field; the verdict (src/measure/verdict.ts) is drawn only from what was stated.
 */
import { z } from "zod";
import type { StudyQuestion } from "../render/results.ts";
import { METRIC_NAMES, betterDirection, metricKind } from "../render/metric-directions.ts";
import { StudyInputError } from "./errors.ts";

const nonEmpty = z.string().trim().min(1, "must be a non-empty string");

const metricName = nonEmpty.refine((name) => metricKind(name) !== null, {
  message: `is not a study metric; use one of ${METRIC_NAMES.join(", ")}`,
});

export const DecisionSchema = z
  .object({
    /** The ADR's id, e.g. ADR-0072. */
    adr: nonEmpty,
    title: nonEmpty,
    link: nonEmpty.optional(),
  })
  .strict();

export const PrimarySchema = z
  .object({
    metric: metricName,
    /** The arm the treatment is measured against. */
    baseline: nonEmpty,
    treatment: nonEmpty,
    /** Which way the hypothesis says the treatment moves the metric; defaults to the metric's better way. */
    direction: z.enum(["lower", "higher"]).optional(),
    /** The smallest difference that matters: a rate difference as a fraction (0.2 = 20 points), or a count. */
    minDifference: z.number().positive("must be a positive number"),
    alpha: z.number().gt(0, "must be between 0 and 0.5").lte(0.5, "must be between 0 and 0.5").default(0.05),
  })
  .strict();

export type { StudyQuestion };

export const SecondarySchema = z.union([
  metricName.transform((metric) => ({ metric })),
  z.object({ metric: metricName, direction: z.enum(["lower", "higher"]).optional() }).strict(),
]);

type Parsed = {
  decision?: z.infer<typeof DecisionSchema>;
  hypothesis?: string;
  primary?: z.infer<typeof PrimarySchema>;
  secondary?: Array<z.infer<typeof SecondarySchema>>;
};

/**
 * Builds the question from the study file's parsed fields, or null when the file states none.
 * A hypothesis or secondary metrics without a primary metric are an error: the primary is what the
 * verdict is drawn from. The arms named must be arms of the study.
 */
export function buildQuestion(data: Parsed, armNames: readonly string[], file: string): StudyQuestion | null {
  if (data.primary === undefined) {
    const stray = (["decision", "hypothesis", "secondary"] as const).filter((key) => data[key] !== undefined);
    if (stray.length > 0) {
      throw new StudyInputError("STUDY_FILE", `${file}: field ${stray[0]}: needs a \`primary:\` metric (metric, baseline, treatment, minDifference) that the verdict is drawn from.`, file);
    }
    return null;
  }
  const primary = data.primary;
  for (const key of ["baseline", "treatment"] as const) {
    if (!armNames.includes(primary[key])) {
      throw new StudyInputError("STUDY_FILE", `${file}: field primary.${key}: "${primary[key]}" is not one of the study's arms (${armNames.join(", ")}).`, file);
    }
  }
  if (primary.baseline === primary.treatment) {
    throw new StudyInputError("STUDY_FILE", `${file}: field primary.treatment: is the same arm as primary.baseline; compare two different arms.`, file);
  }
  const kind = metricKind(primary.metric) as "rate" | "count";
  const direction = primary.direction ?? betterDirection(primary.metric);
  if (direction === null) {
    throw new StudyInputError("STUDY_FILE", `${file}: field primary.direction: ${primary.metric} has no better way of its own; say \`direction: lower\` or \`direction: higher\`.`, file);
  }
  if (kind === "rate" && primary.minDifference >= 1) {
    throw new StudyInputError("STUDY_FILE", `${file}: field primary.minDifference: ${primary.minDifference} is not a rate difference; give a fraction below 1 (0.2 = 20 percentage points).`, file);
  }
  if (data.hypothesis === undefined || data.hypothesis.trim() === "") {
    throw new StudyInputError("STUDY_FILE", `${file}: field hypothesis: state the hypothesis in words beside the primary metric.`, file);
  }
  return {
    decision: data.decision ?? null,
    hypothesis: data.hypothesis.trim(),
    primary: { ...primary, kind, direction },
    secondary: (data.secondary ?? []).map((entry) => ({
      metric: entry.metric,
      kind: metricKind(entry.metric) as "rate" | "count",
      direction: ("direction" in entry ? entry.direction : undefined) ?? betterDirection(entry.metric),
    })),
  };
}
