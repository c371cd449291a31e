/**
 * A machine without a usable sandbox: the probe says why, only the scripted test double runs (and
 * the report says there was no sandbox), everything else refuses to start naming what to install,
 * and `--no-sandbox` runs unconfined with that recorded in every result and on the first screen.
 * The missing or broken bubblewrap is faked at the boundary: ARMSTUDY_BWRAP names a path that
 * does not exist, or a fake executable that prints a version and fails.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { probeSandboxUncached, INSTALL_HINT } from "../../src/run/sandbox/probe.ts";
import { unsandboxedRefusal } from "../../src/run/sandbox/policy.ts";
import type { Sandbox } from "../../src/run/sandbox/types.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const temp = mkdtempSync(join(tmpdir(), "armstudy-nosandbox-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const missing: Sandbox = { kind: "none", reason: `bubblewrap (bwrap) was not found; ${INSTALL_HINT}`, chosen: false };

describe("probing", () => {
  it("names a bubblewrap that is not there, and one that fails its self-test", () => {
    expect(probeSandboxUncached({ env: { PATH: "/usr/bin:/bin", ARMSTUDY_BWRAP: join(temp, "nope") } })).toEqual(missing);
    const fake = join(temp, "bwrap");
    writeFileSync(fake, '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 9.9.9"; exit 0; fi\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    expect(probeSandboxUncached({ env: { PATH: "/usr/bin:/bin", ARMSTUDY_BWRAP: fake } })).toEqual({
      kind: "none",
      reason: `bubblewrap 9.9.9 at ${fake} failed its self-test (exit 1: bwrap: No permissions to create new namespace)`,
      chosen: false,
    });
    expect(probeSandboxUncached({ env: { PATH: "/usr/bin:/bin" }, disabled: true })).toEqual({ kind: "none", reason: "--no-sandbox was given", chosen: true });
  });
});

describe("who may run without a sandbox", () => {
  it("only the scripted test double in our own loop, unless --no-sandbox", () => {
    const chosen: Sandbox = { kind: "none", reason: "--no-sandbox was given", chosen: true };
    expect(
      [
        unsandboxedRefusal(missing, { arm: "goal", agent: "armstudy", modelSpec: "scripted:fixtures/tasks/stockbook/personas/diligent.yaml", testDouble: true }),
        unsandboxedRefusal(chosen, { arm: "goal", agent: "armstudy", modelSpec: "openai:gpt-x", testDouble: false }),
        unsandboxedRefusal(chosen, { arm: "pi-json", agent: "pi", modelSpec: "scripted:p.yaml", testDouble: true }),
      ],
    ).toEqual([null, null, null]);
    expect(unsandboxedRefusal(missing, { arm: "goal", agent: "armstudy", modelSpec: "openai:gpt-x", testDouble: false })).toEqual(
      `arm goal: model openai:gpt-x cannot run without a sandbox, and there is none: ${missing.reason}. To run it confined, ${INSTALL_HINT}. To run it unconfined anyway, pass --no-sandbox (recorded in every result and on the report's first screen).`,
    );
    expect(unsandboxedRefusal(missing, { arm: "g", agent: "armstudy", modelSpec: "replay:cassettes/x", testDouble: true })?.startsWith("arm g: model replay:cassettes/x cannot run without a sandbox")).toEqual(true);
    expect(unsandboxedRefusal(missing, { arm: "pi-json", agent: "pi", modelSpec: "scripted:p.yaml", testDouble: true })?.startsWith("arm pi-json: the real pi client cannot run without a sandbox")).toEqual(true);
  });
});

describe("a study on a machine with no bubblewrap", () => {
  const env = { PATH: process.env.PATH, ARMSTUDY_BWRAP: join(temp, "nope") };

  it("refuses a real endpoint with the install hint (exit 2), before any run", async () => {
    const out = join(temp, "refused");
    const io = memoryIO({ cwd: ROOT, env });
    const code = await main(["study", "--arm", "ordinary", "--runs", "1", "--model", "openai-compatible:m@http://127.0.0.1:9/v1", "--out", out], io);
    expect({ code, err: io.err.join("").includes(`there is none: bubblewrap (bwrap) was not found; ${INSTALL_HINT}`) }).toEqual({ code: 2, err: true });
  });

  it("runs the scripted test double and says on the report's first screen that there was no sandbox; --no-sandbox is recorded", async () => {
    const plain = join(temp, "plain");
    const io = memoryIO({ cwd: ROOT, env });
    expect(await main(["study", "--arm", "ordinary", "--runs", "1", "--out", plain], io)).toEqual(0);
    const report = readFileSync(join(plain, "report.md"), "utf8").split("\n").slice(0, 12);
    expect(report.filter((line) => line.startsWith("> **No sandbox"))).toEqual([
      `> **No sandbox on this machine** (bubblewrap (bwrap) was not found; ${INSTALL_HINT}). Only the bundled scripted test double may run here; install bubblewrap to run a real model or client.`,
    ]);
    const chosen = join(temp, "chosen");
    expect(await main(["study", "--arm", "ordinary", "--runs", "1", "--no-sandbox", "--out", chosen], memoryIO({ cwd: ROOT, env }))).toEqual(0);
    const result = JSON.parse(readFileSync(join(chosen, "runs", "ordinary", "run-1", "result.json"), "utf8"));
    const start = JSON.parse(readFileSync(join(chosen, "runs", "ordinary", "run-1", "record.jsonl"), "utf8").split("\n")[0] ?? "{}");
    expect({ result: result.sandbox, start: start.sandbox }).toEqual({
      result: { kind: "none", network: "unconfined", reason: "--no-sandbox was given", disabled: true },
      start: { kind: "none", network: "unconfined", reason: "--no-sandbox was given" },
    });
    expect(readFileSync(join(chosen, "report.md"), "utf8").includes("> **No sandbox (`--no-sandbox`).**")).toEqual(true);
  });
});

describe("a study on a machine with bubblewrap", () => {
  it("records the sandbox in run.start and result.json, and names it on the report's first screen", async () => {
    const out = join(temp, "boxed");
    expect(await main(["study", "--arm", "ordinary", "--runs", "1", "--out", out], memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } }))).toEqual(0);
    const result = JSON.parse(readFileSync(join(out, "runs", "ordinary", "run-1", "result.json"), "utf8"));
    const start = JSON.parse(readFileSync(join(out, "runs", "ordinary", "run-1", "record.jsonl"), "utf8").split("\n")[0] ?? "{}");
    const version = String(result.sandbox?.version);
    const study = JSON.parse(readFileSync(join(out, "study.json"), "utf8"));
    // This machine (and CI) can make a cgroup per run (ADR 0114): the limits are the run's, not each process's.
    expect({ result: result.sandbox, start: start.sandbox?.kind, network: start.sandbox?.network, limits: start.sandbox?.limitsKind, study: study.sandbox, gitTampered: result.gitTampered }).toEqual({
      result: { kind: "bwrap", version, network: "none", disabled: false },
      start: "bwrap",
      network: "none",
      limits: "cgroup",
      study: { kind: "bwrap", version, disabled: false, limitsKind: "cgroup" },
      gitTampered: null,
    });
    const firstScreen = readFileSync(join(out, "report.md"), "utf8").split("\n").slice(0, 12);
    expect(firstScreen.filter((line) => line.startsWith("> Sandbox:"))).toEqual([
      `> Sandbox: bubblewrap ${version} — the agent's commands, the acceptance checks and any real client ran confined (only the run's folder writable, no network, an allow-listed environment); CPU time, memory and processes capped per run (a cgroup each).`,
    ]);
  });
});
