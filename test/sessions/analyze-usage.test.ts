/**
 * `armstudy analyze` reports `usage` in the terms: reported where the log has usage (Codex:
 * the last cumulative total), estimated with o200k and marked a lower bound where it has none.
 */
import { describe, expect, it } from "vitest";
import { analyzeSessionFile } from "../../src/measure/session-analysis.ts";

const CODEX_CLI = "fixtures/sessions/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl";
const CODEX_DESKTOP = "fixtures/sessions/codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl";

describe("analyze usage", () => {
  it("takes a Codex rollout's last cumulative total as reported usage", async () => {
    const analysis = await analyzeSessionFile(CODEX_CLI);
    // SOURCES.md: final total_token_usage input 6,055,836 / cached 4,929,536 / output 9,118 / reasoning 1,759.
    expect(analysis.usage).toEqual({ input: 6_055_836, cachedInput: 4_929_536, cacheWrite: 0, output: 9_118, reasoning: 1_759, source: "reported", lowerBound: false });
  });

  it("estimates a rollout without token counts and labels it a lower bound", async () => {
    const analysis = await analyzeSessionFile(CODEX_DESKTOP);
    expect({ ...analysis.usage, input: analysis.usage.input > 0, output: analysis.usage.output > 0 }).toEqual({
      input: true,
      cachedInput: 0,
      cacheWrite: 0,
      output: true,
      reasoning: null,
      source: "estimated",
      lowerBound: true,
    });
    expect([analysis.usage.input, analysis.usage.output]).toEqual([analysis.tokens.input, analysis.tokens.output]);
  });
});
