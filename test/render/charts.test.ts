import { describe, expect, it } from "vitest";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { CHART_HEIGHT, CHART_WIDTH, renderCharts } from "../../src/render/charts.ts";
import { summarize } from "../../src/render/summary.ts";
import { threeArms } from "./support.ts";

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
  it("draws four real PNGs of the chart size", () => {
    const charts = renderCharts(summarize(threeArms()));
    expect(charts.map((chart) => chart.name)).toEqual(["tool-calls-before-reply-end.png", "rates.png", "tokens.png", "prefix-sections.png"]);
    for (const chart of charts) {
      expect([...chart.png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(pngSize(chart.png)).toEqual({ chunk: "IHDR", width: CHART_WIDTH, height: CHART_HEIGHT });
      expect(chart.png.length).toBeGreaterThan(10_000);
    }
  });

  it("draws the same bytes for the same summary", () => {
    const a = renderCharts(summarize(threeArms()));
    const b = renderCharts(summarize(threeArms()));
    expect(a.map((chart) => chart.png.equals(b[a.indexOf(chart)]!.png))).toEqual([true, true, true, true]);
  });

  it("draws what the numbers say: a full false-completion bar for ordinary, none when no run claimed falsely", async () => {
    const loaded = threeArms();
    const rates = renderCharts(summarize(loaded))[1]!;
    const falseCompletionColour = "#D55E00";
    expect(await countColour(rates.png, falseCompletionColour)).toBeGreaterThan(10_000);
    loaded.results = loaded.results.map((r) => ({ ...r, metrics: { ...r.metrics, falseCompletion: false } }));
    const none = renderCharts(summarize(loaded))[1]!;
    // Only the legend swatch is left.
    expect(await countColour(none.png, falseCompletionColour)).toBeLessThan(1_000);
    expect(await countColour(none.png, falseCompletionColour)).toBeGreaterThan(0);
  });
});
