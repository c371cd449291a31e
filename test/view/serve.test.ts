/**
 * `armstudy view`: the page written into a real study's folder (the same bytes every time), and
 * `view --serve` as a real process on loopback: the listing, a study and a run record served,
 * and nothing outside what the listing found.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { INDEX_ELEMENT_ID } from "../../src/view/page/data.ts";

const ROOT = resolve(import.meta.dirname, "../..");

describe("armstudy view", () => {
  let root: string;
  let study: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "armstudy-serve-"));
    study = join(root, "studies", "default", "one");
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
    expect(await main(["study", "--arm", "ordinary", "--runs", "1", "--out", study], io)).toEqual(0);
    mkdirSync(join(root, "sessions"));
    copyFileSync(join(study, "runs/ordinary/run-1/record.jsonl"), join(root, "sessions", "run.jsonl"));
    writeFileSync(join(root, "sessions", "notes.jsonl"), '{"hello":1}\n');
    writeFileSync(join(root, "sessions", "other.html"), "<!doctype html><p>not ours</p>\n");
    expect(await main(["analyze", join(ROOT, "fixtures/sessions/pi-mono/before-compaction.jsonl"), "--html", join(root, "sessions", "pi.html")], memoryIO({ cwd: ROOT }))).toEqual(0);
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("writes report.html from the saved results, the same bytes each time", async () => {
    const first = readFileSync(join(study, "report.html"), "utf8");
    const io = memoryIO({ cwd: root });
    expect(await main(["view", "studies/default/one"], io)).toEqual(0);
    expect(io.out.join("")).toEqual("view: studies/default/one/report.html\n");
    expect(readFileSync(join(study, "report.html"), "utf8")).toEqual(first);
    expect(first.includes(`<script type="application/json" id="${INDEX_ELEMENT_ID}">`)).toEqual(true);
  });

  it("refuses a folder that is not a study, naming it as typed", async () => {
    const io = memoryIO({ cwd: root });
    expect(await main(["view", "sessions"], io)).toEqual(2);
    expect(io.err.join("")).toEqual("armstudy view: sessions is not a study results folder: study.json is missing. Pass a folder that `armstudy study` wrote (reports/<study>/<stamp>).\n");
    const usage = memoryIO({ cwd: root });
    expect(await main(["view", "--port", "80"], usage)).toEqual(2);
    expect(usage.err.join("")).toEqual("armstudy view: --port goes with --serve\n");
  });

  it("serves the listing, each study and each run record on 127.0.0.1, and nothing else", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "view", "--serve", root], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((done, fail) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
          if (found) done(found[1] as string);
        });
        child.once("exit", (code) => fail(new Error(`view --serve exited ${code}: ${text}`)));
      });
      const listing = await (await fetch(url)).text();
      expect([...listing.matchAll(/href="([^"]+)"/g)].map((match) => match[1])).toEqual(["/study/studies%2Fdefault%2Fone", "/record/sessions%2Frun.jsonl", "/page/sessions%2Fpi.html"]);
      expect(await (await fetch(`${url}page/sessions%2Fpi.html`)).text()).toEqual(readFileSync(join(root, "sessions", "pi.html"), "utf8"));
      const studyPage = await fetch(`${url}study/studies%2Fdefault%2Fone`);
      expect(studyPage.status).toEqual(200);
      expect(await studyPage.text()).toEqual(readFileSync(join(study, "report.html"), "utf8"));
      const record = await (await fetch(`${url}record/sessions%2Frun.jsonl`)).text();
      expect(record.includes('"title":"Run record run.jsonl"')).toEqual(true);
      const refused = await Promise.all(["record/sessions%2Fnotes.jsonl", "study/..%2F..", "record/..%2F..%2Fetc%2Fpasswd", "study/studies", "page/sessions%2Fother.html"].map(async (path) => (await fetch(url + path)).status));
      expect(refused).toEqual([404, 404, 404, 404, 404]);
      expect((await fetch(url, { method: "POST" })).status).toEqual(405);
    } finally {
      child.kill("SIGTERM");
    }
    const code = await new Promise<number | null>((done) => (child.exitCode !== null ? done(child.exitCode) : child.once("exit", (c) => done(c))));
    expect(code).toEqual(0);
  });
});
