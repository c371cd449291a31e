/**
 * Context windows of common models, in tokens, as data (provider documentation as the author knew
 * it on 2026-11-29; not re-fetched: check before relying on one). A study may declare others
 * (`contextWindows:` in the study file); an arm may set its own (`context.window`). A model not
 * listed has no known window, so automatic context management stays off for it.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "gpt-5": 400_000,
  "gpt-5-mini": 400_000,
  "gpt-5-codex": 400_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.1-mini": 1_047_576,
  "gpt-4o": 128_000,
  "gpt-4o-mini": 128_000,
  "claude-opus-4-5": 200_000,
  "claude-opus-4-1": 200_000,
  "claude-opus-4": 200_000,
  "claude-sonnet-4-5": 200_000,
  "claude-sonnet-4": 200_000,
  "claude-haiku-4-5": 200_000,
  "claude-3-7-sonnet": 200_000,
  "claude-3-5-haiku": 200_000,
  "qwen2.5-coder:7b": 32_768,
  "llama3.1:8b": 131_072,
};

/**
 * The window of a model id: exact, else with a spec prefix (`openai:`), a provider folder
 * (`anthropic/`) or a date suffix removed. `declared` (the study's table) wins over the built-in one.
 */
export function contextWindowFor(
  model: string,
  declared: Readonly<Record<string, number>> = {},
  builtIn: Readonly<Record<string, number>> = CONTEXT_WINDOWS,
): number | null {
  const candidates = [model];
  const afterSpec = model.includes(":") ? model.slice(model.indexOf(":") + 1) : model;
  candidates.push(afterSpec);
  const bare = afterSpec.includes("/") ? afterSpec.slice(afterSpec.lastIndexOf("/") + 1) : afterSpec;
  candidates.push(bare, bare.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, ""));
  for (const table of [declared, builtIn]) {
    for (const id of candidates) {
      const window = table[id];
      if (window !== undefined) return window;
    }
  }
  return null;
}
