/**
 * Faults are faults, not results (ADR 0081): `armstudy study` against a real loopback provider that
 * hangs, answers 500, answers garbage, or refuses connections. Each gives `error` runs with a named
 * cause, `errors` > 0 in --json, exit code 3, and stops after two runs in a row with the same fault,
 * within seconds (the study file sets small request timeouts). The unfinished run has no result,
 * so `--retry-errors` finishes the study once the provider answers.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { type ChatResponse, type ChatServer, chatCompletion, startChatServer } from "../support/chat-server.ts";
import { tinyStudy } from "../support/tiny-study.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on (bound, then closed). */
async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** A study of one arm, three runs, with small request timeouts and one retry. */
function studyWorld(modelSpec: string | null): { root: string; file: string; out: string } {
  return tinyStudy(
    "faults",
    [
      "runs: 3",
      // With no model in the file, the test names it on the command line.
      `model: ${modelSpec ?? "scripted:never-used.yaml"}`,
      "limits: { maxRounds: 4, maxWallMs: 60000 }",
      "requests: { connectTimeoutMs: 1000, idleTimeoutMs: 400, maxRetries: 1, retryDelayMs: 50 }",
    ],
    temps,
  );
}

async function study(root: string, args: string[], env: Record<string, string> = {}) {
  const io = memoryIO({ cwd: root, env: { PATH: process.env.PATH ?? "", ...env } });
  const started = performance.now();
  const code = await main(["study", ...args], io);
  return { code, ms: performance.now() - started, out: io.out.join(""), err: io.err.join("") };
}

const resultOf = (out: string, i: number) => {
  const file = join(out, `runs/ordinary/run-${i}/result.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { status: string; cause: string | null; error: string | null }) : null;
};

const events = (out: string, i: number) =>
  readFileSync(join(out, `runs/ordinary/run-${i}/record.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });

const HANG: ChatResponse = { hang: true };
const FIVE_HUNDRED: ChatResponse = { status: 500, json: { error: { message: "upstream exploded", type: "server_error" } } };
const GARBAGE: ChatResponse = { raw: "<html>502 Bad Gateway</html>", contentType: "application/json" };

/** Measured times to the fault exit, printed once at the end for the report. */
const timings: Record<string, number> = {};
afterAll(() => {
  if (Object.keys(timings).length > 0) process.stdout.write(`time to error exit (ms): ${JSON.stringify(timings)}\n`);
});

describe("a provider that fails gives error runs, a named cause and exit 3", () => {
  it.each([
    ["hangs", HANG, "model.timeout", "gave up after 2 attempts: no byte from the provider for 400 ms before the provider answered (idle timeout)", 2],
    ["answers 500", FIVE_HUNDRED, "model.http_5xx", "gave up after 2 attempts: HTTP 500: upstream exploded (server_error)", 2],
    ["answers garbage", GARBAGE, "model.garbled", "malformed JSON in the answer (Unexpected token '<', \"<html>502 \"... is not valid JSON): <html>502 Bad Gateway</html>", 1],
    ["refuses connections", null, "model.unreachable", "gave up after 2 attempts: network error: connection failed (ECONNREFUSED)", 0],
  ] as const)("a provider that %s", async (kind, answer, cause, detail, requestsPerRun) => {
    let baseUrl: string;
    let server: ChatServer | null = null;
    if (answer === null) {
      baseUrl = `http://127.0.0.1:${await freePort()}/v1`;
    } else {
      server = await startChatServer(() => answer);
      servers.push(server);
      baseUrl = server.baseUrl;
    }
    const { root, file, out } = studyWorld(`openai-compatible:m@${baseUrl}`);
    const ran = await study(root, [file, "--out", out, "--json"]);
    timings[kind] = Math.round(ran.ms);
    const json = JSON.parse(ran.out) as Record<string, unknown>;
    const message = `${baseUrl}/chat/completions: ${detail}`;

    expect(ran.code).toEqual(3);
    expect([json.ran, json.errors, json.errorCauses, json.interrupted, json.failFast]).toEqual([
      2,
      2,
      { [cause]: 2 },
      false,
      { cause, runs: [{ arm: "ordinary", runIndex: 1 }, { arm: "ordinary", runIndex: 2 }], message },
    ]);
    expect(ran.err).toEqual(
      `armstudy study: stopped: 2 runs in a row ended with the same fault, ${cause} (ordinary run 1, ordinary run 2): ${message}\n` +
        `Fix the cause, then finish the study with: armstudy study ${file} --retry-errors --out out\n`,
    );
    // Two error runs with the cause named; the third never started, so it has no result (resumable).
    expect([1, 2, 3].map((i) => resultOf(out, i)).map((r) => r && { status: r.status, cause: r.cause, error: r.error })).toEqual([
      { status: "error", cause, error: message },
      { status: "error", cause, error: message },
      null,
    ]);
    // Each retry is a record event; the run ends with the cause.
    const record = events(out, 1);
    expect(record.filter((e) => e.type === "model.retry").map((e) => [e.attempt, e.cause])).toEqual(requestsPerRun === 1 ? [] : [[1, cause]]);
    expect(record.filter((e) => e.type === "run.end").map((e) => [e.status, e.cause])).toEqual([["error", cause]]);
    if (server !== null) expect(server.requests.length).toEqual(2 * requestsPerRun);
    // Left out of every statistic; counted on the report's first lines.
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect([summary.runs.errors, summary.runs.scored, summary.arms[0].n, summary.arms[0].runs, summary.arms[0].errors.causes]).toEqual([2, 0, 0, [], { [cause]: 2 }]);
    const report = readFileSync(join(out, "report.md"), "utf8").split("\n");
    // The fault line comes right after the model and sandbox lines of the first screen.
    expect(report.filter((line) => line.startsWith("> **2 of 2 finished run(s) ended as error**"))).toEqual([
      `> **2 of 2 finished run(s) ended as error** (\`${cause}\` ×2): a fault, not a result. They are left out of every rate, mean, interval, comparison and chart below; rerun them with \`armstudy study --retry-errors\`.`,
    ]);
    // Bounded: seconds, not the minutes a default timeout would take.
    expect(ran.ms).toBeLessThan(60_000);
  }, 90_000);
});

describe("--retry-errors", () => {
  it("reruns only the errored runs (and the unfinished one) once the provider answers", async () => {
    let failing = true;
    const server = await startChatServer(() => (failing ? FIVE_HUNDRED : { json: chatCompletion({ content: "done", finishReason: "stop" }) }));
    servers.push(server);
    const { root, file, out } = studyWorld(`openai-compatible:m@${server.baseUrl}`);
    expect((await study(root, [file, "--out", out])).code).toEqual(3);
    failing = false;
    // --resume alone keeps the error runs as they are.
    const resumed = await study(root, [file, "--out", out, "--resume", "--json"]);
    expect([resumed.code, JSON.parse(resumed.out).ran, JSON.parse(resumed.out).skipped]).toEqual([3, 1, 2]);
    const retried = await study(root, [file, "--out", out, "--retry-errors", "--json"]);
    const json = JSON.parse(retried.out);
    expect([retried.code, json.ran, json.skipped, json.errors]).toEqual([0, 2, 1, 0]);
    expect([1, 2, 3].map((i) => resultOf(out, i)?.status)).toEqual(["completed", "completed", "completed"]);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect([summary.runs.errors, summary.arms[0].n]).toEqual([0, 3]);
  }, 90_000);
});

describe("secrets", () => {
  it("a key echoed by the server is in no file and no output; a study file cannot send it elsewhere", async () => {
    const key = "sk-live-0123456789abcdefghij";
    const server = await startChatServer((request, index) =>
      index === 0
        ? { status: 500, json: { error: { message: `bad gateway for ${String(request.headers.authorization)}` } } }
        : { json: chatCompletion({ content: `your key is ${key}`, finishReason: "stop" }) },
    );
    servers.push(server);
    const env = { LOCAL_KEY: key };
    // From the study file: refused before any request.
    const fromFile = studyWorld(`openai-compatible:m@${server.baseUrl}#LOCAL_KEY`);
    const refused = await study(fromFile.root, [fromFile.file, "--out", fromFile.out], env);
    expect([refused.code, refused.err.split("\n")[0], server.requests.length, existsSync(fromFile.out)]).toEqual([
      2,
      `armstudy study: model spec "openai-compatible:m@${server.baseUrl}#LOCAL_KEY": it would send the key in LOCAL_KEY to 127.0.0.1:${server.port}, which is not a provider's own host. A study file cannot send a key to another host: name the base URL yourself with --model on the command line`,
      0,
      false,
    ]);
    // Typed on the command line: sent, and every echo of it redacted.
    const { root, file, out } = studyWorld(null);
    const ran = await study(root, [file, "--model", `openai-compatible:m@${server.baseUrl}#LOCAL_KEY`, "--runs", "1", "--out", out], env);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${key}`, `Bearer ${key}`]);
    expect(ran.code).toEqual(0);
    const written = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    expect(written.filter((path) => readFileSync(path).includes(key))).toEqual([]);
    expect([ran.out.includes(key), ran.err.includes(key)]).toEqual([false, false]);
    const record = events(out, 1);
    expect(record.filter((e) => e.type === "model.retry").map((e) => e.message)).toEqual(["HTTP 500: bad gateway for Bearer [redacted]"]);
    expect(record.filter((e) => e.type === "assistant.text").map((e) => e.text)).toEqual(["your key is [redacted]"]);
  }, 90_000);
});
