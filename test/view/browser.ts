/**
 * Headless Chromium for the viewer's end-to-end tests: Debian's /usr/bin/chromium driven by
 * playwright-core, a fresh profile per launch, no network features. Screenshots go under
 * test-results/view/ (git-ignored) for a person to look at, and are compared loosely.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const SCREENSHOTS = join(import.meta.dirname, "../../test-results/view");

export async function launch(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "armstudy-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, name);
}

export interface ImageStats {
  width: number;
  height: number;
  /** Share of pixels that are not (near) white. */
  inked: number;
  /** Distinct colours, quantised to 4 bits a channel. */
  colours: number;
}

async function pixels(png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: ctx.getImageData(0, 0, image.width, image.height).data };
}

export async function imageStats(png: Buffer): Promise<ImageStats> {
  const { width, height, data } = await pixels(png);
  let inked = 0;
  const colours = new Set<number>();
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i] as number;
    const g = data[i + 1] as number;
    const b = data[i + 2] as number;
    if (r < 240 || g < 240 || b < 240) inked += 1;
    colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
  }
  return { width, height, inked: inked / (width * height), colours: colours.size };
}

/** Share of pixels that differ by more than a small tolerance (same-size images only). */
export async function pixelDiff(a: Buffer, b: Buffer): Promise<number> {
  const left = await pixels(a);
  const right = await pixels(b);
  if (left.width !== right.width || left.height !== right.height) return 1;
  let differ = 0;
  for (let i = 0; i < left.data.length; i += 4) {
    const delta = Math.abs((left.data[i] as number) - (right.data[i] as number)) + Math.abs((left.data[i + 1] as number) - (right.data[i + 1] as number)) + Math.abs((left.data[i + 2] as number) - (right.data[i + 2] as number));
    if (delta > 48) differ += 1;
  }
  return differ / (left.width * left.height);
}
