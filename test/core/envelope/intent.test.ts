import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { intentFreshness, readStamps, RunIdError, stampIntentText, stampMarker } from "../../../src/core/envelope/intent.ts";

describe("intent stamp", () => {
  it("puts one stamp on the first line and leaves the prose alone", () => {
    expect(stampIntentText("## Restated intent\nAdd X.\n", "run-7")).toBe("<!-- intent_run_id: run-7 -->\n## Restated intent\nAdd X.\n");
  });

  it("replaces earlier stamps wherever they are", () => {
    const text = "<!-- intent_run_id: run-6 -->\n## Restated intent\nAdd X. <!-- intent_run_id: run-5 -->\n";
    expect(stampIntentText(text, "run-7")).toBe("<!-- intent_run_id: run-7 -->\n## Restated intent\nAdd X. \n");
  });

  it("goes after YAML front matter and keeps CRLF line ends", () => {
    expect(stampIntentText("---\nstakes: low\n---\n# Intent\n", "r1")).toBe("---\nstakes: low\n---\n<!-- intent_run_id: r1 -->\n# Intent\n");
    expect(stampIntentText("# Intent\r\nline\r\n", "r1")).toBe("<!-- intent_run_id: r1 -->\r\n# Intent\r\nline\r\n");
  });

  it("refuses run ids that cannot sit in an HTML comment", () => {
    for (const bad of ["", "two words", "a-->b", "<x>", "a--b"]) expect(() => stampMarker(bad)).toThrow(RunIdError);
    expect(stampMarker("2026-05-20T10:00:00Z_a1")).toBe("<!-- intent_run_id: 2026-05-20T10:00:00Z_a1 -->");
  });
});

describe("intent freshness", () => {
  it("is fresh, stale, unstamped or missing", () => {
    expect(intentFreshness("<!-- intent_run_id: r2 -->\n# Intent\n", "r2")).toEqual({ verdict: "fresh", run_id: "r2", stamped: ["r2"], message: "intent: fresh — .build-loop/intent.md is stamped for run r2" });
    expect(intentFreshness("<!--intent_run_id:r1-->\n# Intent\n", "r2")).toEqual({
      verdict: "stale",
      run_id: "r2",
      stamped: ["r1"],
      message: "intent: stale — .build-loop/intent.md is stamped for run r1, not r2; re-run the intent restatement and re-stamp",
    });
    expect(intentFreshness("# Intent\n", "r2")).toEqual({
      verdict: "unstamped",
      run_id: "r2",
      stamped: [],
      message: "intent: unstamped — .build-loop/intent.md carries no run id; re-run the intent restatement and re-stamp",
    });
    expect(intentFreshness(null, "r2")).toEqual({ verdict: "missing", run_id: "r2", stamped: [], message: "intent: missing — no .build-loop/intent.md; write the restatement and stamp it" });
  });

  it("calls a file stamped for two runs stale", () => {
    expect(intentFreshness("<!-- intent_run_id: r2 -->\n<!-- intent_run_id: r1 -->\n", "r2")).toEqual({
      verdict: "stale",
      run_id: "r2",
      stamped: ["r2", "r1"],
      message: "intent: stale — .build-loop/intent.md is stamped for run r1 (and also for this run, r2), not r2; re-run the intent restatement and re-stamp",
    });
  });

  it("stamping any text makes it fresh for that run and stale for another (fuzz)", () => {
    const runId = fc.stringMatching(/^[A-Za-z0-9._:-]{1,20}$/).filter((id) => !id.includes("--"));
    fc.assert(
      fc.property(fc.string(), runId, runId, (text, id, other) => {
        const stamped = stampIntentText(text, id);
        expect(readStamps(stamped)).toEqual([id]);
        expect(intentFreshness(stamped, id).verdict).toBe("fresh");
        expect(intentFreshness(stamped, other).verdict).toBe(other === id ? "fresh" : "stale");
        expect(stampIntentText(stamped, id)).toBe(stamped);
      }),
    );
  });
});
