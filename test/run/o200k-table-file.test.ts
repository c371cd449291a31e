import { spawnSync } from "node:child_process";
import { hash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TokenCounter } from "../../src/core/tokens.ts";
import { o200kRankList } from "../../src/core/tokens/o200k.ts";
import { buildRankTable, rankTableFromParts, rankTableParts } from "../../src/core/tokens/rank-table.ts";
import { encodeRankTable } from "../../src/core/tokens/rank-table-file.ts";
import { analyzeSessionFile } from "../../src/measure/session-analysis.ts";
import { O200K_TABLE_FILE, o200kListIdentity, readO200kTableFile } from "../../src/run/o200k-table-file.ts";

const ROOT = join(import.meta.dirname, "../..");
const digest = (bytes: Uint8Array): { bytes: number; sha256: string } => ({ bytes: bytes.length, sha256: hash("sha256", bytes, "hex") });

describe("the committed compact o200k table", () => {
  const list = o200kRankList();

  it("is exactly what scripts/o200k-table.ts writes from this gpt-tokenizer's rank list (else run it)", () => {
    const built = encodeRankTable(rankTableParts(list), o200kListIdentity());
    expect(digest(readFileSync(O200K_TABLE_FILE))).toEqual(digest(built));
  });

  it("loads as a table that answers every rank of the list, and nothing else, as the built one does", () => {
    const read = readO200kTableFile();
    if (!("parts" in read)) throw new Error(read.problem);
    const loaded = rankTableFromParts(read.parts);
    const built = buildRankTable(list);
    expect(loaded.maxTokenBytes).toBe(built.maxTokenBytes);
    const wrong: number[] = [];
    list.forEach((token, r) => {
      const bytes = typeof token === "string" ? new TextEncoder().encode(token) : Uint8Array.from(token);
      if (loaded.rank(bytes, 0, bytes.length) !== r) wrong.push(r);
      // One byte more or less than a token is whatever the built table says it is.
      if (bytes.length > 1 && loaded.rank(bytes, 0, bytes.length - 1) !== built.rank(bytes, 0, bytes.length - 1)) wrong.push(-r);
    });
    expect(wrong).toEqual([]);
  });

  it("is refused, naming the file and why, when missing or built from another list", () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-o200k-"));
    const missing = join(dir, "none.bin");
    expect(readO200kTableFile(missing)).toEqual({ problem: `${missing}: ENOENT: no such file or directory, open '${missing}'` });
    const foreign = join(dir, "foreign.bin");
    writeFileSync(foreign, encodeRankTable(rankTableParts(["a", "b"]), "gpt-tokenizer 0.0.1 o200k_base 9 bytes"));
    expect(readO200kTableFile(foreign)).toEqual({ problem: `${foreign}: built from "gpt-tokenizer 0.0.1 o200k_base 9 bytes", not from ${JSON.stringify(o200kListIdentity())}` });
  });

  it("gives the CLI (which loads it) the same session counts as the table built in this process", async () => {
    // Sessions whose figures include counted tokens: a counted prompt prefix, and estimated usage.
    const sessions = ["fixtures/sessions/offline-real-clients/codex-session.jsonl", "fixtures/sessions/codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"];
    for (const session of sessions) {
      const cli = spawnSync(process.execPath, ["bin/armstudy.js", "analyze", session, "--json"], { cwd: ROOT, encoding: "utf8" });
      expect(cli.status).toBe(0);
      const here = await analyzeSessionFile(join(ROOT, session), { counter: new TokenCounter() });
      const { tokens, tokensIncludingSubagents } = JSON.parse(cli.stdout)[0];
      expect({ tokens, tokensIncludingSubagents }).toEqual(JSON.parse(JSON.stringify({ tokens: here.tokens, tokensIncludingSubagents: here.tokensIncludingSubagents })));
      expect(tokens.prefix).toBeGreaterThan(4000);
    }
  });
});
