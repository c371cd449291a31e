/**
 * The viewer as a person uses it, in headless Chromium: a real study (the bundled arms, the
 * stockbook fixture, the scripted test double) writes report.html; the page is opened from disk,
 * filtered, a run opened, a tool call and a claim check unfolded, ordinary run 1 put beside goal
 * run 1 with the divergence marked, and the keyboard used. Screenshots land in test-results/view/
 * (look at them) and are compared loosely. Skips, saying so, when /usr/bin/chromium is absent.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { loadResults } from "../../src/render/results.ts";
import { readRecordFile } from "../../src/run/record-reader.ts";
import { alignSteps } from "../../src/view/page/align.ts";
import { buildSteps } from "../../src/view/page/steps.ts";
import { runPayload } from "../../src/view/page-data.ts";
import { writeStudyView } from "../../src/view/write.ts";
import { HAVE_CHROMIUM, imageStats, launch, pixelDiff, screenshotPath } from "./browser.ts";

const ROOT = resolve(import.meta.dirname, "../..");
if (!HAVE_CHROMIUM) console.warn("test/view/browser.test.ts: skipped — /usr/bin/chromium is absent (apt-get install -y chromium; .ci/run installs it)");

describe.skipIf(!HAVE_CHROMIUM)("report.html in headless Chromium", () => {
  let temp: string;
  let out: string;
  let url: string;
  let context: BrowserContext;
  let close: () => Promise<void>;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), "armstudy-view-"));
    out = join(temp, "results");
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
    const code = await main(["study", "--arm", "ordinary", "--arm", "goal", "--runs", "2", "-j", "2", "--out", out], io);
    expect({ code, err: io.err.join(""), view: io.out.join("").split("\n").slice(-2) }).toEqual({ code: 0, err: "", view: [`view: ${join(out, "report.html")}`, ""] });
    url = pathToFileURL(join(out, "report.html")).href;
    ({ context, close } = await launch());
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    // No request may leave the page: everything is inline.
    await context.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : (errors.push(`network: ${route.request().url()}`), route.abort())));
  }, 180_000);

  afterAll(async () => {
    await close?.();
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it("shows the study: the at-a-glance table, drawn charts, and every run", async () => {
    await page.goto(url);
    await page.waitForSelector("table.runs tbody tr");
    expect(await page.locator("h1").textContent()).toEqual("Study default");
    const meta = JSON.parse(readFileSync(join(out, "study.json"), "utf8"));
    expect(await page.locator("main > p", { hasText: "Sandbox:" }).textContent()).toEqual(meta.sandbox.kind === "bwrap" ? `Sandbox: bwrap${meta.sandbox.version ? ` ${meta.sandbox.version}` : ""}.` : expect.stringMatching(/^Sandbox: none/));
    expect(await page.locator("table.glance tbody tr td:first-child").allTextContents()).toEqual(["ordinary", "goal"]);
    expect(await page.locator("table.glance tbody tr").first().locator("td").allTextContents()).toEqual(["ordinary", "none", "0/2", "2/2", "0/2", "2 of 6", "9", "45445"]);
    expect(await page.locator("table.runs tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-key")))).toEqual(["ordinary/1", "goal/1", "ordinary/2", "goal/2"]);
    await page.waitForFunction(() => document.querySelectorAll("canvas").length === 2 && [...document.querySelectorAll("canvas")].every((c) => (c as HTMLCanvasElement).width > 0));
    const charts = await imageStats(await page.locator(".charts").screenshot());
    expect(charts.inked).toBeGreaterThan(0.05);
    const shot = await page.screenshot({ path: screenshotPath("study.png") });
    const stats = await imageStats(shot);
    expect({ width: stats.width, height: stats.height, blank: stats.inked < 0.02, colourful: stats.colours > 30 }).toEqual({ width: 1400, height: 1000, blank: false, colourful: true });
  });

  it("opens a run by clicking its bar in the per-run chart", async () => {
    const canvas = page.locator(".charts canvas").nth(1);
    const box = (await canvas.boundingBox())!;
    const { createCanvas, loadImage } = await import("@napi-rs/canvas");
    const image = await loadImage(await canvas.screenshot());
    const drawn = createCanvas(image.width, image.height).getContext("2d");
    drawn.drawImage(image, 0, 0);
    const { data } = drawn.getImageData(0, 0, image.width, image.height);
    // The first column of goal's colour (#E69F00, the second arm) from the left is goal run 1's bar; skip the legend on top.
    let hit: { x: number; y: number } | null = null;
    for (let x = 0; x < image.width && hit === null; x += 1) {
      for (let y = Math.floor(image.height * 0.3); y < image.height * 0.9; y += 1) {
        const i = (y * image.width + x) * 4;
        if (Math.abs((data[i] as number) - 0xe6) < 12 && Math.abs((data[i + 1] as number) - 0x9f) < 12 && (data[i + 2] as number) < 30) {
          hit = { x: x + 4, y: y + 10 };
          break;
        }
      }
    }
    expect(hit).not.toEqual(null);
    await page.mouse.click(box.x + (hit!.x * box.width) / image.width, box.y + (hit!.y * box.height) / image.height);
    await page.waitForSelector(".timeline .step");
    expect(new URL(page.url()).hash).toEqual("#run/goal/1");
    await page.goto(url);
    await page.waitForSelector("table.runs tbody tr");
  });

  it("filters runs by outcome and arm", async () => {
    const keys = () => page.locator("table.runs tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-key")));
    await page.check("#f-falseCompletion");
    expect(await keys()).toEqual(["ordinary/1", "ordinary/2"]);
    expect(await page.locator(".filters .shown").textContent()).toEqual("2 of 4 runs");
    await page.check("#f-error");
    expect(await keys()).toEqual([]);
    await page.uncheck("#f-error");
    await page.uncheck("#f-falseCompletion");
    await page.selectOption("#f-arm", "goal");
    expect(await keys()).toEqual(["goal/1", "goal/2"]);
    await page.selectOption("#f-arm", "");
    expect(await keys()).toEqual(["ordinary/1", "goal/1", "ordinary/2", "goal/2"]);
  });

  it("opens a run from the keyboard and shows its whole trajectory; a tool call unfolds to its output", async () => {
    await page.locator("h1").click();
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".timeline .step");
    expect(new URL(page.url()).hash).toEqual("#run/goal/1");
    const loaded = await loadResults(out);
    const goal1 = loaded.results.find((result) => result.arm === "goal" && result.runIndex === 1);
    const steps = buildSteps(await runPayload(out, goal1!));
    await page.waitForFunction((count) => document.querySelectorAll(".timeline .step").length === count, steps.length);
    expect(await page.locator(".timeline .step .badge").allTextContents()).toEqual(steps.map((step) => step.kind));

    const { events } = await readRecordFile(join(out, "runs/goal/run-1/record.jsonl"));
    const firstShell = events.find((event) => event.type === "tool.call" && event.name === "shell");
    const shellResult = events.find((event) => event.type === "tool.result" && firstShell?.type === "tool.call" && event.id === firstShell.id);
    const n = steps.find((step) => step.event === null ? false : step.kind === "tool" && step.label === "shell")!.n;
    await page.locator(`#step-${n} .head`).click();
    expect(await page.locator(`#step-${n} .body pre.out`).last().textContent()).toEqual(shellResult?.type === "tool.result" ? shellResult.output : "missing");
    expect(await page.locator(`#step-${n} .body .argname`).allTextContents()).toEqual(["command"]);
    expect(new URL(page.url()).hash).toEqual(`#run/goal/1/step/${n}`);
    await page.screenshot({ path: screenshotPath("run-tool-open.png") });
  });

  it("moves with j/k and opens with Enter, keeping the address on the step", async () => {
    await page.goto(`${url}#run/goal/1`);
    await page.waitForSelector(".timeline .step");
    await page.locator("h1").click();
    for (const key of ["j", "j", "j", "j", "k"]) await page.keyboard.press(key);
    expect(await page.locator(".step.sel").getAttribute("data-n")).toEqual("3");
    await page.keyboard.press("Enter");
    expect((await page.locator("#step-3.open .body pre.out").textContent())?.split("\n")[0]).toEqual("# Handoff: stockbook, the next six changes");
    expect(new URL(page.url()).hash).toEqual("#run/goal/1/step/3");
    await page.keyboard.press("ArrowDown");
    expect(await page.locator(".step.sel").getAttribute("data-n")).toEqual("4");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    expect(await page.locator("#step-4.open").count()).toEqual(0);
    // n jumps to the next place the harness acted: here the first reply end, then its policy decision.
    const steps = await page.locator(".timeline .step .badge").allTextContents();
    const firstReply = steps.indexOf("reply") + 1;
    await page.keyboard.press("n");
    expect(await page.locator(".step.sel").getAttribute("data-n")).toEqual(String(firstReply));
    await page.keyboard.press("n");
    expect(await page.locator(".step.sel .badge").textContent()).toEqual("policy");
    await page.keyboard.press("p");
    expect(await page.locator(".step.sel").getAttribute("data-n")).toEqual(String(firstReply));
  });

  it("shows a claim check's quoted evidence and where it was found in the tool output", async () => {
    const claims = page.locator(".step.k-claim");
    const last = claims.last();
    const n = Number(await last.getAttribute("data-n"));
    await page.goto(`${url}#run/goal/1/step/${n}`);
    await page.waitForSelector(`#step-${n}.open.sel`);
    const found = page.locator(`#step-${n} .evidence.found`);
    expect(await found.count()).toEqual(5);
    expect(await page.locator(`#step-${n} .evidence mark`).first().textContent()).toEqual("ok - B1: a leading minus sign makes the amount negative");
    // Each found quote is shown in its place in the tool output, marked.
    expect(await page.locator(`#step-${n} .evidence pre.excerpt mark`).allTextContents()).toEqual([
      "ok - B1: a leading minus sign makes the amount negative",
      "ok - B2: an outgoing entry larger than the stock is refused with the numbers",
      "ok - B3: a quoted field may contain commas",
      "ok - B4: parts at or below their re-order level are listed, sorted by sku",
      "ok - B5: goods in move the average cost; goods out do not",
    ]);
    await page.screenshot({ path: screenshotPath("run-claim.png") });
    const link = found.first().locator("a");
    const target = Number((await link.textContent())!.replace("found in step ", ""));
    await link.click();
    await page.waitForSelector(`#step-${target}.open`);
    expect(await page.locator(`#step-${target} .body mark`).allTextContents()).toContain("ok - B1: a leading minus sign makes the amount negative");
  });

  it("ends a run's timeline with its acceptance checks and its highlighted diff", async () => {
    await page.goto(`${url}#run/ordinary/1`);
    await page.waitForSelector(".step.k-diff");
    await page.locator(".step.k-checks .head").click();
    expect(await page.locator(".step.k-checks .check.fail").count()).toEqual(4);
    await page.locator(".step.k-diff .head").click();
    expect(await page.locator(".step.k-diff .dl.add").count()).toBeGreaterThan(5);
    expect(await page.locator(".step.k-diff .tk.kw").count()).toBeGreaterThan(5);
    await page.locator(".step.k-diff").scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("run-diff.png") });
  });

  it("puts ordinary run 1 beside goal run 1 with the first divergence marked and the differences summarised", async () => {
    await page.goto(url);
    await page.locator('table.runs tr[data-key="ordinary/1"] a.cmp').click();
    await page.waitForSelector(".crow.diverge");
    expect(new URL(page.url()).hash).toEqual("#compare/ordinary/1/goal/1");
    const loaded = await loadResults(out);
    const of = (arm: string) => runPayload(out, loaded.results.find((result) => result.arm === arm && result.runIndex === 1)!);
    const alignment = alignSteps(buildSteps(await of("ordinary")), buildSteps(await of("goal")));
    expect(await page.locator(".crow").count()).toEqual(alignment.rows.length);
    const row = page.locator(".crow.diverge");
    expect(await row.count()).toEqual(1);
    expect(await row.getAttribute("data-row")).toEqual(String((alignment.divergence ?? -2) + 1));
    // The goal arm's first continuation message is the first decisive step ordinary never gets.
    expect(await row.locator(".cell").first().textContent()).toEqual("—");
    expect(await row.locator(".cell").last().locator(".label").textContent()).toEqual("continuation");
    expect(await page.locator(".diverge-note b").first().textContent()).toEqual("First divergence");
    const summary = await page.locator("table.summary tbody tr").evaluateAll((rows) => rows.map((tr) => [...tr.children].slice(0, 3).map((cell) => cell.textContent)));
    expect(summary.find((cells) => cells[0] === "claim checks")).toEqual(["claim checks", "0", "3"]);
    expect(summary.find((cells) => cells[0] === "tool calls")).toEqual(["tool calls", "9", "39"]);
    await page.screenshot({ path: screenshotPath("compare.png") });

    await page.locator("h1").click();
    await page.keyboard.press("j");
    await page.keyboard.press("Enter");
    expect(await page.locator('.crow.sel.open').getAttribute("data-row")).toEqual("1");
    expect(await page.locator('.crow.sel.open .body').count()).toEqual(2);
    await page.keyboard.press("d");
    expect(await page.locator(".crow.sel").getAttribute("data-row")).toEqual(String((alignment.divergence ?? -2) + 1));
    await page.keyboard.press("j");
    await page.click("#jump-divergence");
    await page.waitForSelector(".crow.diverge.sel.open");
  });

  it("looks the same when the study is shown again, and different from the other views", async () => {
    await page.goto(`${url}#study`);
    await page.waitForSelector("table.runs tbody tr");
    await page.waitForFunction(() => [...document.querySelectorAll("canvas")].every((c) => (c as HTMLCanvasElement).width > 0));
    await page.waitForTimeout(100);
    const again = await page.screenshot();
    const first = readFileSync(screenshotPath("study.png"));
    expect(await pixelDiff(first, again)).toBeLessThan(0.01);
    expect(await pixelDiff(first, readFileSync(screenshotPath("compare.png")))).toBeGreaterThan(0.05);
  });

  it("reported no script error and made no network request", () => {
    expect(errors).toEqual([]);
  });

  it("shows hostile text in a reply and a tool call as text, never as markup", async () => {
    const copy = join(temp, "hostile");
    cpSync(out, copy, { recursive: true });
    const hostile = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><!--';
    const long = Array.from({ length: 60 }, (_, i) => `line ${i + 1} ${hostile}`).join("\n");
    appendFileSync(
      join(copy, "runs/ordinary/run-1/record.jsonl"),
      [
        { t: 999, type: "assistant.text", text: hostile, final: false },
        { t: 1000, type: "tool.call", id: "x", name: "shell", arguments: { command: hostile } },
        { t: 1001, type: "tool.result", id: "x", name: "shell", ok: false, exitCode: 1, output: long },
      ]
        .map((event) => `${JSON.stringify(event)}\n`)
        .join("") + "{not json\n",
    );
    writeFileSync(join(copy, "runs/ordinary/run-1/diff.patch"), `diff --git a/x b/x\n+${hostile}\n`);
    const path = await writeStudyView(copy);
    expect(readFileSync(path, "utf8").includes("<script>window.__pwned")).toEqual(false);
    const hostilePage = await context.newPage();
    await hostilePage.goto(`${pathToFileURL(path).href}#run/ordinary/1`);
    await hostilePage.waitForSelector(".step.k-diff");
    // A bad line in the record is named above the timeline, and the rest is still shown.
    const lines = readFileSync(join(copy, "runs/ordinary/run-1/record.jsonl"), "utf8").trimEnd().split("\n").length;
    expect((await hostilePage.locator("p.warn").allTextContents()).map((text) => text.replace(/\(.*\)/, "(…)"))).toEqual([
      `record warning: ${join(copy, "runs/ordinary/run-1/record.jsonl")}:${lines}: not valid JSON (…); skipped`,
    ]);
    const texts = await hostilePage.locator(".step.k-text .sum, .step.k-tool .sum").allTextContents();
    expect(texts.slice(-2)).toEqual([hostile, hostile]);
    await hostilePage.locator(".step.k-diff .head").click();
    // The long output is folded to its first lines until the person asks for the rest.
    const call = hostilePage.locator(".step.k-tool").last();
    await call.locator(".head").click();
    const output = call.locator(".fold pre.out");
    expect((await output.textContent())?.split("\n").length).toEqual(24);
    await call.locator("button.more").click();
    expect(await output.textContent()).toEqual(long);
    expect(await hostilePage.locator("img").count()).toEqual(0);
    expect(await hostilePage.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toEqual(null);
    await hostilePage.close();
  });

  it("renders an imported Claude Code session with its sub-agents as nested timelines (analyze --html)", async () => {
    const session = join(ROOT, "fixtures/sessions/claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl");
    const html = join(temp, "session.html");
    const io = memoryIO({ cwd: ROOT });
    expect(await main(["analyze", session, "--html", html], io)).toEqual(0);
    expect(existsSync(html)).toEqual(true);
    const sessionPage = await context.newPage();
    await sessionPage.goto(pathToFileURL(html).href);
    await sessionPage.waitForSelector(".timeline .step");
    expect(await sessionPage.locator("h1").textContent()).toEqual("Session ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl");
    const sub = sessionPage.locator(".step.k-subagent").first();
    await sub.locator(".head").click();
    expect(await sub.locator(".nested .timeline .step").count()).toBeGreaterThan(5);
    await sessionPage.screenshot({ path: screenshotPath("session.png") });
    await sessionPage.close();
  });
});
