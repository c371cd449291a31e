/**
 * compile(pack, inputs): the prompt a model sees, its stable prefix, and per-section figures.
 *
 * - Pure: the same pack and inputs give byte-identical output. No clock, no files.
 * - Stable sections come first, in `order` (ties keep declared order); the `reporting` section is
 *   always the last stable section and is never cut (over budget is a violation). Dynamic sections
 *   (`stable: false`) follow the stable prefix.
 * - Sections are trimmed and joined with one blank line (SEPARATOR).
 * - Counting goes through a TokenCounter, which caches by content hash; pass the same counter to
 *   the next compile and only sections whose text changed are counted again.
 *
 * The prefix's token count is exact (equal to counting the joined prefix) without counting the
 * joined prefix, and each section is counted once: the counter keeps each section's count with
 * the pre-tokens at its edges (TokenCounter.shape), and the join re-reads only the pre-tokens
 * around each separator, up to where the split falls back into step with the next section (a
 * punctuation piece may run on through the blank line and a leading `/`).
 * test/core/prompt/compile.test.ts checks this property with fast-check against js-tiktoken.
 */
import { TokenCounter, contentHash, countTokens } from "../tokens.ts";
import { PackError } from "./errors.ts";
import type { CompileResult, PromptInputs, PromptPack, PromptSection, SectionBudget, SectionStats, Violation } from "./types.ts";

/** The section that ends the stable prefix and is never cut. */
export const REPORTING_SECTION_ID = "reporting";
export const SEPARATOR = "\n\n";

export interface CompileOptions {
  /** Reuse one counter across compiles so unchanged sections are not counted again. */
  counter?: TokenCounter;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_.-]*)\s*\}\}/g;

interface Rendered {
  section: PromptSection;
  text: string;
  stats: SectionStats;
}

export function compile(pack: PromptPack, inputs: PromptInputs = {}, options: CompileOptions = {}): CompileResult {
  const counter = options.counter ?? new TokenCounter();
  const violations: Violation[] = [];

  const seen = new Map<string, PromptSection>();
  for (const section of pack.sections) {
    const first = seen.get(section.id);
    if (first !== undefined) {
      throw new PackError("DUPLICATE_SECTION", section.origin, "id", `section "${section.id}" is also defined by ${first.origin}; give one of them another id.`);
    }
    seen.set(section.id, section);
  }

  const isReporting = (section: PromptSection): boolean => section.id === REPORTING_SECTION_ID;
  const byOrder = (list: PromptSection[]): PromptSection[] =>
    list
      .map((section, index) => ({ section, index }))
      .sort((a, b) => a.section.order - b.section.order || a.index - b.index)
      .map(({ section }) => section);
  const stable = [
    ...byOrder(pack.sections.filter((s) => s.stable && !isReporting(s))),
    ...pack.sections.filter(isReporting),
  ];
  const dynamic = byOrder(pack.sections.filter((s) => !s.stable && !isReporting(s)));

  const render = (section: PromptSection): Rendered => {
    let text = renderText(section, inputs, violations).trim();
    let tokens = text === "" ? 0 : counter.shape(text).tokens;
    let cutFrom: SectionStats["cutFrom"] = null;
    const overLimits = limitsExceeded(section.budget, text.length, tokens);
    const cuttable = section.cut === "tail" && !isReporting(section);
    if (overLimits.length > 0 && cuttable) {
      cutFrom = { chars: text.length, tokens };
      text = cutToFit(text, section.budget);
      tokens = text === "" ? 0 : counter.shape(text).tokens;
    } else {
      for (const { limit, actual, max } of overLimits) {
        const unit = limit === "maxChars" ? "characters" : "o200k tokens";
        violations.push({
          kind: "over_budget",
          section: section.id,
          origin: section.origin,
          limit,
          actual,
          max,
          message: `section "${section.id}" is ${actual} ${unit}, over its ${limit} of ${max}${isReporting(section) ? " (the reporting section is never cut)" : ""}; shorten it or raise its budget.`,
        });
      }
    }
    const stats: SectionStats = {
      id: section.id,
      order: section.order,
      stable: section.stable || isReporting(section),
      origin: section.origin,
      chars: text.length,
      tokens,
      maxChars: section.budget.maxChars ?? null,
      maxTokens: section.budget.maxTokens ?? null,
      over: !cuttable && overLimits.length > 0,
      cutFrom,
      hash: contentHash(text),
    };
    return { section, text, stats };
  };

  const stableRendered = stable.map(render);
  const dynamicRendered = dynamic.map(render);
  const stableTexts = stableRendered.map((r) => r.text).filter((t) => t !== "");
  const dynamicTexts = dynamicRendered.map((r) => r.text).filter((t) => t !== "");
  const allTexts = [...stableTexts, ...dynamicTexts];

  const stablePrefix = stableTexts.join(SEPARATOR);
  const text = allTexts.join(SEPARATOR);
  const prefixTokens = counter.countJoined(stableTexts, SEPARATOR);
  const totalTokens = dynamicTexts.length === 0 ? prefixTokens : counter.countJoined(allTexts, SEPARATOR);

  for (const { limit, actual, max } of limitsExceeded(pack.prefixBudget ?? {}, stablePrefix.length, prefixTokens)) {
    const unit = limit === "maxChars" ? "characters" : "o200k tokens";
    violations.push({
      kind: "prefix_over_budget",
      limit,
      actual,
      max,
      message: `the stable prefix of "${pack.name}" is ${actual} ${unit}, over its ${limit} of ${max}; shorten a section or raise the prefix budget.`,
    });
  }

  return {
    text,
    stablePrefix,
    prefixHash: contentHash(stablePrefix),
    prefixChars: stablePrefix.length,
    prefixTokens,
    prefixBudget: { maxChars: pack.prefixBudget?.maxChars ?? null, maxTokens: pack.prefixBudget?.maxTokens ?? null },
    totalChars: text.length,
    totalTokens,
    sections: [...stableRendered, ...dynamicRendered].map((r) => r.stats),
    violations,
  };
}

function renderText(section: PromptSection, inputs: PromptInputs, violations: Violation[]): string {
  const source = section.source;
  switch (source.kind) {
    case "render":
      return source.render(inputs);
    case "markdown": {
      const missing = new Set<string>();
      const text = source.text.replace(PLACEHOLDER, (whole, name: string) => {
        const value = Object.hasOwn(inputs, name) ? inputs[name] : undefined;
        if (value === undefined) {
          missing.add(name);
          return whole;
        }
        return value;
      });
      for (const name of missing) {
        violations.push({
          kind: "missing_input",
          section: section.id,
          origin: section.origin,
          name,
          message: `section "${section.id}" uses {{${name}}} but no input "${name}" was given; pass it (armstudy prompt show --input ${name}=VALUE) or remove the placeholder.`,
        });
      }
      return text;
    }
    default: {
      const unknown: never = source;
      throw new Error(`unknown section source ${JSON.stringify(unknown)}`);
    }
  }
}

function limitsExceeded(budget: SectionBudget, chars: number, tokens: number): { limit: "maxChars" | "maxTokens"; actual: number; max: number }[] {
  const out: { limit: "maxChars" | "maxTokens"; actual: number; max: number }[] = [];
  if (budget.maxChars !== undefined && chars > budget.maxChars) out.push({ limit: "maxChars", actual: chars, max: budget.maxChars });
  if (budget.maxTokens !== undefined && tokens > budget.maxTokens) out.push({ limit: "maxTokens", actual: tokens, max: budget.maxTokens });
  return out;
}

/**
 * The longest head of `text` that fits the budget, with trailing white space dropped. Never
 * splits a surrogate pair. Counts with the uncached counter: the candidates are throwaway texts.
 */
export function cutToFit(text: string, budget: SectionBudget): string {
  const fits = (candidate: string): boolean =>
    (budget.maxChars === undefined || candidate.length <= budget.maxChars) &&
    (budget.maxTokens === undefined || countTokens(candidate) <= budget.maxTokens);
  const head = (n: number): string => {
    let end = n;
    const code = text.charCodeAt(end - 1);
    if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1;
    return text.slice(0, end).trimEnd();
  };
  let lo = 0;
  let hi = Math.min(text.length, budget.maxChars ?? text.length);
  if (fits(head(hi))) return head(hi);
  // Invariant: head(lo) fits, head(hi) does not.
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(head(mid))) lo = mid;
    else hi = mid;
  }
  return head(lo);
}
