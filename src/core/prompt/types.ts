/**
 * Prompt packs: the sections a harness composes into its system prompt, each with a budget, and
 * the result of compiling them. Pure data; the compiler (compile.ts) is the only logic over it.
 */

/** Limits for one section (or for the whole stable prefix). Absent = no limit. */
export interface SectionBudget {
  maxChars?: number;
  maxTokens?: number;
}

/** What happens when a section is over budget: `never` reports a violation, `tail` cuts the end. */
export type CutRule = "never" | "tail";

/**
 * Values a pack is compiled with: `{{name}}` placeholders in markdown sections and the argument
 * of render functions. Anything that varies per run (a work directory, a date) comes in here and
 * belongs in a dynamic section, so the stable prefix never drifts silently.
 */
export type PromptInputs = Readonly<Record<string, string>>;

/** A section whose text is computed from the inputs. Must be pure: same inputs, same text. */
export type RenderFunction = (inputs: PromptInputs) => string;

export type SectionSource =
  /** Markdown text (the body of a section file); `{{name}}` placeholders are filled from inputs. */
  | { kind: "markdown"; text: string }
  /** A pure render function, by its registry name (see builtins.ts). */
  | { kind: "render"; name: string; render: RenderFunction };

export interface PromptSection {
  id: string;
  /** Position among sections of the same kind (stable / dynamic); ties keep declared order. */
  order: number;
  /** True: part of the stable prefix (the provider-cache identity). False: after it. */
  stable: boolean;
  cut: CutRule;
  budget: SectionBudget;
  source: SectionSource;
  /** Where the section came from (a file path, or `arm.yaml` for a builtin), for messages. */
  origin: string;
}

export interface PromptPack {
  name: string;
  sections: readonly PromptSection[];
  /** Optional limit on the whole stable prefix. */
  prefixBudget?: SectionBudget;
}

/** Per-section figures after compilation. `chars` are UTF-16 code units (JavaScript length). */
export interface SectionStats {
  id: string;
  order: number;
  stable: boolean;
  origin: string;
  chars: number;
  tokens: number;
  maxChars: number | null;
  maxTokens: number | null;
  /** True when the compiled text is over a limit (only possible for `cut: never`). */
  over: boolean;
  /** Set when a `tail` section was cut to fit: its size before the cut. */
  cutFrom: { chars: number; tokens: number } | null;
  /** Sha-256 of the section's compiled text: what "changed since the baseline" compares. */
  hash: string;
}

export type Violation =
  | {
      kind: "over_budget";
      section: string;
      origin: string;
      limit: "maxChars" | "maxTokens";
      actual: number;
      max: number;
      message: string;
    }
  | {
      kind: "prefix_over_budget";
      limit: "maxChars" | "maxTokens";
      actual: number;
      max: number;
      message: string;
    }
  | { kind: "missing_input"; section: string; origin: string; name: string; message: string };

export interface CompileResult {
  /** Exactly what the model sees as the system prompt. */
  text: string;
  /** The stable sections, joined: the provider-cache identity. */
  stablePrefix: string;
  /** Sha-256 (hex) of the stable prefix. */
  prefixHash: string;
  prefixChars: number;
  prefixTokens: number;
  /** The pack's prefix budget, as compiled (null: no limit). */
  prefixBudget: { maxChars: number | null; maxTokens: number | null };
  /** The whole text (stable prefix and dynamic sections). */
  totalChars: number;
  totalTokens: number;
  /** In compiled order: stable sections (reporting last), then dynamic ones. */
  sections: SectionStats[];
  violations: Violation[];
}
