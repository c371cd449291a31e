import { describe, expect, it } from "vitest";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import fc from "fast-check";
import { CHART_HEIGHT, CHART_WIDTH, compactTokens, logBounds, mergedSectionOrder, renderCharts, subtitleFor } from "../../src/render/charts.ts";
import { summarize } from "../../src/render/summary.ts";
import { armMeta, meta, result, threeArms } from "./support.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk, which a valid PNG has right after the signature. */
function pngSize(png: Buffer): { width: number; height: number; chunk: string } {
  return { chunk: png.subarray(12, 16).toString("ascii"), width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Pixels of exactly this colour (ignores anti-aliased edges). */
async function countColour(png: Buffer, hex: string): Promise<number> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255) count += 1;
  return count;
}

describe("renderCharts", () => {
  it("draws six real PNGs of the chart size", () => {
    const charts = renderCharts(summarize(threeArms()));
    expect(charts.map((chart) => chart.name)).toEqual(["rates.png", "turns.png", "checks.png", "tokens.png", "tool-calls-before-reply-end.png", "prefix-sections.png"]);
    for (const chart of charts) {
      expect([...chart.png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(pngSize(chart.png)).toEqual({ chunk: "IHDR", width: CHART_WIDTH, height: CHART_HEIGHT });
      expect(chart.png.length).toBeGreaterThan(10_000);
    }
  });

  it("draws the same bytes for the same summary", () => {
    const a = renderCharts(summarize(threeArms()));
    const b = renderCharts(summarize(threeArms()));
    expect(a.map((chart) => chart.png.equals(b[a.indexOf(chart)]!.png))).toEqual([true, true, true, true, true, true]);
  });

  it("draws what the numbers say: a full false-completion bar for ordinary, none when no run claimed falsely", async () => {
    const loaded = threeArms();
    const rates = renderCharts(summarize(loaded)).find((chart) => chart.name === "rates.png")!;
    const falseCompletionColour = "#D55E00";
    expect(await countColour(rates.png, falseCompletionColour)).toBeGreaterThan(10_000);
    loaded.results = loaded.results.map((r) => ({ ...r, metrics: { ...r.metrics, falseCompletion: false } }));
    const none = renderCharts(summarize(loaded)).find((chart) => chart.name === "rates.png")!;
    // Only the legend swatch is left.
    expect(await countColour(none.png, falseCompletionColour)).toBeLessThan(1_000);
    expect(await countColour(none.png, falseCompletionColour)).toBeGreaterThan(0);
  });
});

describe("chart text", () => {
  it("puts the runs per arm and the test-double note on two short lines, so neither runs off a chart with many arms", () => {
    expect(subtitleFor(summarize(threeArms()))).toEqual(["study default · 3 run(s) per arm", "scripted test double: harness mechanics, not a model's behaviour"]);
    const uneven = threeArms();
    uneven.results = uneven.results.filter((r) => !(r.arm === "goal" && r.runIndex === 3));
    uneven.missing = [{ arm: "goal", runIndex: 3 }];
    expect(subtitleFor(summarize(uneven))).toEqual(["study default · runs per arm: old-build 3, ordinary 3, goal 2", "scripted test double: harness mechanics, not a model's behaviour"]);
    const mixed = { dir: "/r", meta: meta([armMeta("a", { testDouble: false, model: "openai:gpt-5" }), armMeta("b")], 1), results: [result("a", 1, 3), result("b", 1, 3)], missing: [] };
    expect(subtitleFor(summarize(mixed))).toEqual(["study default · 1 run(s) per arm", "scripted test double (mechanics, not a model's behaviour): b"]);
  });

  it.each([
    [0, "0"],
    [1305.3, "1,305"],
    [9999, "9,999"],
    [43801, "43.8k"],
    [99_949, "99.9k"],
    [261671.7, "262k"],
    [1_234_567, "1.2M"],
  ])("a bar of %s tokens is labelled %j", (value, label) => {
    expect(compactTokens(value)).toEqual(label);
  });

  it("bounds a log axis by 1-2-5 steps around the data, with headroom for the top bar's label", () => {
    expect(logBounds([2439, 261671.7, 4937.7, 1333, 43801, 1643.7, 1512, 385924, 5248.7])).toEqual({ min: 1000, max: 500_000 });
    expect(logBounds([0, 0, 21716.3, 1305.7])).toEqual({ min: 1000, max: 50_000 });
    expect(logBounds([])).toEqual({ min: 1, max: 10 });
    const oneTwoFive = (value: number) => [1, 2, 5].some((step) => Math.abs(value / 10 ** Math.floor(Math.log10(value) + 1e-9) - step) < 1e-9);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.5, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 12 }), (values) => {
        const { min, max } = logBounds(values);
        expect({ below: min <= Math.min(...values), above: max >= Math.max(...values) * 1.15, steps: oneTwoFive(min) && oneTwoFive(max) }).toEqual({ below: true, above: true, steps: true });
      }),
    );
  });

  it("draws the every-check-passed bars beside false completion: two full arms, none when no run passed", async () => {
    const loaded = threeArms();
    const passed = "#009E73";
    expect(await countColour(renderCharts(summarize(loaded)).find((chart) => chart.name === "rates.png")!.png, passed)).toBeGreaterThan(10_000);
    loaded.results = loaded.results.map((r) => ({ ...r, acceptance: { ...r.acceptance, passed: 0, failed: 3, checks: r.acceptance.checks.map((c) => ({ ...c, passed: false })) } }));
    const none = await countColour(renderCharts(summarize(loaded)).find((chart) => chart.name === "rates.png")!.png, passed);
    expect({ legendOnly: none > 0 && none < 1_000 }).toEqual({ legendOnly: true });
  });
});

describe("mergedSectionOrder", () => {
  it("keeps every arm's own order, placing a later arm's new section after its predecessor", () => {
    expect(
      mergedSectionOrder([
        { sections: ["identity", "autonomy", "todo", "reporting"] },
        { sections: ["identity", "personality", "autonomy", "todo", "reporting"] },
        { sections: ["identity", "personality", "autonomy", "todo", "goal", "reporting"] },
        { sections: [] },
      ]),
    ).toEqual(["identity", "personality", "autonomy", "todo", "goal", "reporting"]);
  });
});
