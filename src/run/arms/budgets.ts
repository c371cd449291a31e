/**
 * budgets.yaml beside the arms: per-section and prefix limits, per-arm overrides, and the allowed
 * growth of the stable prefix against the baseline. See arms/README.md for the format.
 */
import { readFile } from "node:fs/promises";
import { PackError, packErrorFromIssues } from "../../core/prompt/errors.ts";
import type { PromptPack, PromptSection, SectionBudget } from "../../core/prompt/types.ts";
import { parseYaml } from "../../core/prompt/yaml.ts";
import { type BudgetsFile, budgetsFileSchema, knownBudgetFields } from "./schema.ts";
import { displayPath } from "./source.ts";
import { likelyMeant } from "../../core/nearest-name.ts";
import { type LineOf, lazyYamlLines, lineOfField } from "../../core/yaml-lines.ts";

export interface Budgets {
  /** The file, as messages name it. */
  file: string;
  data: BudgetsFile;
  /** Where a field sits in the file, for the cross-checks' messages (ADR 0212). */
  lineOf?: LineOf;
}

/** The growth allowed when budgets.yaml does not say (percent of the prefix's o200k tokens). */
export const DEFAULT_GROWTH_PERCENT = 5;

/** Reads and validates a budgets file; undefined-on-missing unless `mustExist`. */
export async function readBudgets(path: string, cwd: string, mustExist: boolean): Promise<Budgets | null> {
  const file = displayPath(path, cwd);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT" && !mustExist) return null;
    throw new PackError("FIELD", file, "", `cannot be read (${(error as Error).message}). Check the --budgets path.`);
  }
  const lineOf = lazyYamlLines(text);
  const parsed = budgetsFileSchema.safeParse(parseYaml(text, file) ?? {});
  if (!parsed.success) throw packErrorFromIssues(parsed.error.issues, file, { known: knownBudgetFields, lineOf });
  return { file, data: parsed.data, lineOf };
}

/**
 * Every section id and arm name the file mentions must exist: a misspelt id would otherwise
 * silently leave a section without a limit. `sectionsByArm` holds the arms loaded, `armNames` every
 * arm in the folder; a global section id is checked only when every arm was loaded (ADR 0211).
 */
export function validateBudgets(budgets: Budgets, sectionsByArm: ReadonlyMap<string, readonly string[]>, armNames: readonly string[] = [...sectionsByArm.keys()]): void {
  const all = new Set([...sectionsByArm.values()].flat());
  const at = (field: string): number | undefined => (budgets.lineOf === undefined ? undefined : lineOfField(budgets.lineOf, field));
  // A section id may belong to an arm that was not loaded; only a load of every arm can say it is unknown.
  const everyArm = armNames.every((name) => sectionsByArm.has(name));
  for (const id of Object.keys(budgets.data.sections ?? {})) {
    if (everyArm && !all.has(id)) {
      throw new PackError(
        "BUDGET_UNKNOWN_SECTION",
        budgets.file,
        `sections.${id}`,
        `no arm has a section "${id}"${meant(id, [...all])} (sections: ${[...all].sort().join(", ")}). Fix the id or remove the entry.`,
        at(`sections.${id}`),
      );
    }
  }
  for (const [arm, entry] of Object.entries(budgets.data.arms ?? {})) {
    if (!armNames.includes(arm)) {
      const problem = `there is no arm "${arm}"${meant(arm, armNames)} (arms: ${[...armNames].sort().join(", ")}). Fix the name or remove the entry.`;
      throw new PackError("BUDGET_UNKNOWN_ARM", budgets.file, `arms.${arm}`, problem, at(`arms.${arm}`));
    }
    const ids = sectionsByArm.get(arm);
    if (ids === undefined) continue; // not loaded by this command
    for (const id of Object.keys(entry.sections ?? {})) {
      if (!ids.includes(id)) {
        throw new PackError(
          "BUDGET_UNKNOWN_SECTION",
          budgets.file,
          `arms.${arm}.sections.${id}`,
          `arm "${arm}" has no section "${id}"${meant(id, ids)} (its sections: ${[...ids].sort().join(", ") || "none"}). Fix the id or remove the entry.`,
          at(`arms.${arm}.sections.${id}`),
        );
      }
    }
  }
}

/** "; did you mean \"reporting\"?" when the typed name is a near miss of a known one. */
function meant(typed: string, known: readonly string[]): string {
  const near = likelyMeant(typed, known);
  return near === null ? "" : `; did you mean "${near}"?`;
}

/** The pack of `arm`: its sections with their budgets (global, then the arm's own override). */
export function applyBudgets(arm: string, sections: readonly PromptSection[], budgets: Budgets | null): PromptPack {
  const data = budgets?.data ?? {};
  const own = data.arms?.[arm];
  const merged = (a: SectionBudget | undefined, b: SectionBudget | undefined): SectionBudget => clean({ ...a, ...b });
  const prefixBudget = merged(data.prefix, own?.prefix);
  return {
    name: arm,
    sections: sections.map((section) => ({ ...section, budget: merged(data.sections?.[section.id], own?.sections?.[section.id]) })),
    ...(Object.keys(prefixBudget).length > 0 ? { prefixBudget } : {}),
  };
}

export function growthPercent(budgets: Budgets | null): number {
  return budgets?.data.growth?.maxPercent ?? DEFAULT_GROWTH_PERCENT;
}

function clean(budget: SectionBudget): SectionBudget {
  const out: SectionBudget = {};
  if (budget.maxChars !== undefined) out.maxChars = budget.maxChars;
  if (budget.maxTokens !== undefined) out.maxTokens = budget.maxTokens;
  return out;
}
