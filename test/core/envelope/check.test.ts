import { describe, expect, it } from "vitest";
import { checkEnvelope, type Verdict } from "../../../src/core/envelope/check.ts";
import type { PlanDimensions } from "../../../src/core/envelope/plan.ts";

/** A well-formed envelope for a plan without synthesis dimensions. */
function envelope(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    branch: "feat/x",
    commit_sha: "pending",
    files_changed: ["src/x.ts"],
    loc_added: 10,
    loc_removed: 2,
    f_criteria: { F1: "pass", F2: "pass" },
    synthesis_attestation: {},
    novel_decisions: [],
    notes: "",
    wall_clock_seconds: 42,
    task_id: "t-0123abcd",
    ...overrides,
  };
}

function without(key: string, value = envelope()): Record<string, unknown> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

function decision(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    decision_id: "d1",
    decision: "Cache or fetch?",
    options: [
      { id: "A", summary: "cache", user_impact: "faster pages", performance: "p95 60ms", speed: "~30 min", cost: "$0" },
      { id: "B", summary: "fetch", user_impact: "fresher data", performance: "p95 220ms", speed: "~10 min", cost: "$0" },
    ],
    recommended_default: "A",
    confidence: "high",
    reasoning: "Latency matters more here.",
    ...overrides,
  };
}

function ledgerEntry(dimension: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dimension,
    owner: "plan",
    locked_value: "secondary",
    alternatives_rejected: ["primary — too loud"],
    evidence_file: "src/x.ts",
    on_new_decision: "flag",
    ...overrides,
  };
}

const plan = (...dimensions: string[]): PlanDimensions => ({ dimensions, source: "front-matter", line: 2 });

const verdictOf = (raw: unknown, options: Parameters<typeof checkEnvelope>[1] = {}): Verdict => checkEnvelope(raw, options).verdict;

/** The verdict of a well-formed envelope with no plan, to spread and override. */
const commitVerdict: Verdict = {
  route: "commit",
  reasons: [],
  followups: [],
  warnings: [],
  failing_criteria: [],
  status: "completed",
  task_id: "t-0123abcd",
  plan: { source: "inferred", dimensions: [] },
  checked_ledger: false,
};

describe("rule 1: required fields", () => {
  it("commits a complete envelope and fills the additive fields' defaults", () => {
    const result = checkEnvelope(envelope());
    expect(result.verdict).toEqual(commitVerdict);
    expect(result.envelope).toEqual({
      ...envelope(),
      decision_ledger: [],
      capabilities_used: [],
      capabilities_rejected: [],
      downstream_iterate_outcome: null,
      merge_plan: null,
    });
  });

  it.each(["branch", "commit_sha", "files_changed", "loc_added", "loc_removed", "f_criteria", "synthesis_attestation", "novel_decisions", "notes", "wall_clock_seconds", "task_id"])(
    "marks a missing %s malformed",
    (key) => {
      const verdict = verdictOf(without(key));
      expect(verdict.route).toBe("malformed");
      expect(verdict.reasons.map(({ rule, route, path }) => ({ rule, route, path }))).toEqual([{ rule: "R1", route: "malformed", path: key }]);
      expect(verdict.reasons[0]?.message).toMatch(/^missing required field; absent keys make the envelope malformed — /);
    },
  );

  it("accepts every empty sentinel: present-but-empty is legitimate", () => {
    const empty = envelope({ branch: "", commit_sha: "", files_changed: [], loc_added: 0, loc_removed: 0, f_criteria: {}, synthesis_attestation: {}, novel_decisions: [], notes: "", wall_clock_seconds: 0, task_id: "unknown" });
    expect(verdictOf(empty)).toEqual({ ...commitVerdict, task_id: "unknown" });
  });

  it("reports every wrong type at once, each naming the field, the value and the fix", () => {
    const verdict = verdictOf(
      envelope({
        commit_sha: 1234567,
        files_changed: "src/x.ts",
        loc_added: -3,
        loc_removed: 1.5,
        f_criteria: { F1: "PASS", F2: true },
        notes: null,
        wall_clock_seconds: "42",
        task_id: "T-12",
        status: "done",
      }),
    );
    expect(verdict.route).toBe("malformed");
    expect(verdict.reasons).toEqual([
      { rule: "R1", route: "malformed", path: "commit_sha", message: "must be a string; got 1234567 (quote it in YAML so it stays text)" },
      { rule: "R1", route: "malformed", path: "files_changed", message: 'must be a list; got "src/x.ts"' },
      { rule: "R1", route: "malformed", path: "loc_added", message: "must be ≥ 0; got -3" },
      { rule: "R1", route: "malformed", path: "loc_removed", message: "must be a whole number ≥ 0; got 1.5" },
      { rule: "R1", route: "malformed", path: "f_criteria.F1", message: 'must be one of "pass", "fail"; got "PASS"' },
      { rule: "R1", route: "malformed", path: "f_criteria.F2", message: 'must be one of "pass", "fail"; got true' },
      { rule: "R1", route: "malformed", path: "notes", message: 'is null; a string is required here — use the empty sentinel "" for no data' },
      { rule: "R1", route: "malformed", path: "wall_clock_seconds", message: 'must be a number; got the string "42"' },
      {
        rule: "R1",
        route: "malformed",
        path: "task_id",
        message: 'must be "t-" and 8 hex digits (e.g. "t-0a1b2c3d"), echoed unmodified from the brief, or "unknown" when the brief had no [TASK_ID: …] prefix',
      },
      {
        rule: "R1",
        route: "malformed",
        path: "status",
        message:
          'must be one of "completed", "fixed", "partial", "blocked", "scope_breach", "deferred_architecture", "plan_malformed", "evidence_stale", "needs_dependency", "failed", "concurrent_modification_detected", or "" for none; got "done"',
      },
    ]);
  });

  it("rejects a commit_sha that is neither a SHA, pending, nor empty", () => {
    expect(verdictOf(envelope({ commit_sha: "HEAD" })).reasons).toEqual([
      { rule: "R1", route: "malformed", path: "commit_sha", message: 'must be a commit SHA (7–64 hex digits), "pending" when the orchestrator commits, or "" when nothing was committed' },
    ]);
    expect(verdictOf(envelope({ commit_sha: "4f1c2a9e" })).route).toBe("commit");
  });

  it("treats a non-mapping as malformed, naming what it got", () => {
    expect(verdictOf(["not", "a", "mapping"])).toEqual({
      ...commitVerdict,
      route: "malformed",
      status: null,
      task_id: null,
      reasons: [{ rule: "R1", route: "malformed", path: "", message: "the envelope must be a mapping of fields; got a list" }],
    });
    expect(verdictOf(null).reasons[0]?.message).toBe("the envelope must be a mapping of fields; got null");
  });

  it("requires a non-empty decision_ledger when the plan names dimensions", () => {
    const attested = envelope({ synthesis_attestation: { tone: "applied" } });
    expect(verdictOf(attested, { plan: plan("tone") }).reasons).toEqual([
      { rule: "R1", route: "malformed", path: "decision_ledger", message: "missing required field; the plan names synthesis dimensions (tone), so each needs a ledger entry" },
    ]);
    expect(verdictOf({ ...attested, decision_ledger: [] }, { plan: plan("tone") }).reasons).toEqual([
      { rule: "R1", route: "malformed", path: "decision_ledger", message: "is empty; [] is allowed only when the plan has no synthesis_dimensions block, and this one names tone" },
    ]);
    expect(verdictOf({ ...attested, decision_ledger: [ledgerEntry("tone")] }, { plan: plan("tone") }).route).toBe("commit");
  });

  it("without a plan, infers the dimensions from the attestation (so the ledger is still required)", () => {
    const verdict = verdictOf(envelope({ synthesis_attestation: { tone: "applied" } }));
    expect(verdict.plan).toEqual({ source: "inferred", dimensions: ["tone"] });
    expect(verdict.reasons.map((reason) => reason.path)).toEqual(["decision_ledger"]);
  });

  it("permits an omitted or empty ledger when the plan has no dimensions", () => {
    expect(verdictOf(envelope(), { plan: plan() }).route).toBe("commit");
    expect(verdictOf(envelope({ decision_ledger: [] }), { plan: plan() }).route).toBe("commit");
  });

  it("accepts the additive fields and validates their shapes", () => {
    const full = envelope({
      capabilities_used: ["repo-search"],
      capabilities_rejected: [{ id: "browser", reason: "nothing to look at" }],
      downstream_iterate_outcome: "resolved-on-pass-1",
      merge_plan: { clean_against: ["main"], conflicts_with: [], suggested_order: ["c1"] },
      commit_subject: "docs: x",
      verifications: { typecheck: "pass" },
    });
    expect(verdictOf(full).route).toBe("commit");
    expect(
      verdictOf(envelope({ capabilities_rejected: [{ id: "browser" }], downstream_iterate_outcome: "maybe", merge_plan: { clean_against: ["main"] } })).reasons.map(({ path, message }) => ({ path, message })),
    ).toEqual([
      { path: "capabilities_rejected[0].reason", message: "missing required field; absent keys make the envelope malformed — add it" },
      {
        path: "downstream_iterate_outcome",
        message: 'must be one of "clean", "resolved-on-pass-1", "resolved-on-pass-2-or-later", "overflow-to-followup", "abandoned"; got "maybe"',
      },
      { path: "merge_plan.conflicts_with", message: "missing required field; absent keys make the envelope malformed — add it" },
      { path: "merge_plan.suggested_order", message: "missing required field; absent keys make the envelope malformed — add it" },
    ]);
  });
});

describe("synthesis_attestation values", () => {
  it("accepts applied, n/a and the deviation object", () => {
    const attestation = { a: "applied", b: "n/a", c: { status: "deviated", deviation_reason: "repo precedent" } };
    expect(verdictOf(envelope({ synthesis_attestation: attestation, decision_ledger: [ledgerEntry("a"), ledgerEntry("b"), ledgerEntry("c")] })).route).toBe("commit");
  });

  it("rejects a bare deviated, a deviation without a reason, and other words", () => {
    const verdict = verdictOf(
      envelope({
        synthesis_attestation: { a: "deviated", b: { status: "deviated" }, c: "yes", d: { status: "applied" }, e: { status: "deviated", deviation_reason: "x", extra: 1 } },
        decision_ledger: [ledgerEntry("a")],
      }),
    );
    expect(verdict.reasons).toEqual([
      { rule: "R1", route: "malformed", path: "synthesis_attestation.a", message: 'a deviation needs the object form {status: "deviated", deviation_reason: "<why>"}; a bare "deviated" carries no reason' },
      { rule: "R1", route: "malformed", path: "synthesis_attestation.b", message: "deviation_reason must be a non-empty sentence saying why the plan's call was not followed" },
      { rule: "R1", route: "malformed", path: "synthesis_attestation.c", message: 'must be "applied", "n/a", or {status: "deviated", deviation_reason: "<why>"}; got "yes"' },
      {
        rule: "R1",
        route: "malformed",
        path: "synthesis_attestation.d",
        message: 'must be "applied", "n/a", or {status: "deviated", deviation_reason: "<why>"}; an object\'s status must be "deviated" (got "applied")',
      },
      { rule: "R1", route: "malformed", path: "synthesis_attestation.e", message: "unexpected key(s) extra in the deviation object; it holds only status and deviation_reason" },
    ]);
  });
});

describe("rule 2: attestation covers the plan's dimensions", () => {
  it("marks an unattested plan dimension malformed and accepts extra attestations", () => {
    const raw = envelope({ synthesis_attestation: { a: "applied", extra: "applied" }, decision_ledger: [ledgerEntry("a")] });
    expect(verdictOf(raw, { plan: plan("a", "b") })).toEqual({
      ...commitVerdict,
      route: "malformed",
      status: null,
      plan: { source: "plan", dimensions: ["a", "b"] },
      reasons: [
        {
          rule: "R2",
          route: "malformed",
          path: "synthesis_attestation.b",
          message: 'the plan names dimension "b" but the envelope does not attest it; add "applied", "n/a" or {status: "deviated", deviation_reason: "<why>"}',
        },
      ],
    });
    expect(verdictOf(raw, { plan: plan("a") }).route).toBe("commit");
  });
});

describe("rule 3: novel decisions beside plan dimensions go to scope review", () => {
  const raw = envelope({ synthesis_attestation: { a: "applied" }, decision_ledger: [ledgerEntry("a")], novel_decisions: [decision()] });

  it("routes to scope_review when the plan has dimensions and the status is not blocked", () => {
    expect(verdictOf(raw, { plan: plan("a") })).toEqual({
      ...commitVerdict,
      route: "scope_review",
      plan: { source: "plan", dimensions: ["a"] },
      reasons: [{ rule: "R3", route: "scope_review", path: "novel_decisions", message: "1 novel decision(s) (d1) beside a plan with synthesis dimensions: send the diff to scope review before committing" }],
    });
  });

  it("commits the same decisions when the plan has no dimensions", () => {
    expect(verdictOf(envelope({ novel_decisions: [decision()] }), { plan: plan() }).route).toBe("commit");
  });
});

describe("rule 4: blocked with decisions is resolved, not committed", () => {
  it("routes to resolve_decisions and keeps failing criteria as follow-ups", () => {
    const raw = envelope({ status: "blocked", commit_sha: "", novel_decisions: [decision(), decision({ decision_id: "d2" })], f_criteria: { F1: "fail" } });
    expect(verdictOf(raw)).toEqual({
      ...commitVerdict,
      route: "resolve_decisions",
      status: "blocked",
      failing_criteria: ["F1"],
      reasons: [
        {
          rule: "R4",
          route: "resolve_decisions",
          path: "novel_decisions",
          message: 'status is "blocked" with 2 novel decision(s) (d1, d2): do not commit; resolve each one, then re-dispatch the implementer with the resolutions',
        },
      ],
      followups: [{ rule: "R6", route: "iterate", path: "f_criteria.F1", message: 'F1 is "fail": route to Iterate with F1 as the entry point' }],
    });
  });

  it("never sends a blocked envelope to scope review", () => {
    const raw = envelope({ status: "blocked", synthesis_attestation: { a: "applied" }, decision_ledger: [ledgerEntry("a")], novel_decisions: [decision()] });
    const verdict = verdictOf(raw, { plan: plan("a") });
    expect([verdict.route, ...verdict.followups.map((finding) => finding.rule)]).toEqual(["resolve_decisions"]);
  });

  it("warns when a blocked implementer committed anyway", () => {
    expect(verdictOf(envelope({ status: "blocked", commit_sha: "abcdef1", novel_decisions: [decision()] })).warnings).toEqual([
      { rule: "NOTE", path: "commit_sha", message: 'a blocked implementer must not commit; commit_sha should be ""' },
    ]);
  });
});

describe("rule 5: blocked without decisions", () => {
  it("is malformed", () => {
    expect(verdictOf(envelope({ status: "blocked", commit_sha: "" }))).toEqual({
      ...commitVerdict,
      route: "malformed",
      status: "blocked",
      reasons: [
        {
          rule: "R5",
          route: "malformed",
          path: "novel_decisions",
          message: 'status is "blocked" but novel_decisions is empty, so the block has nothing to resolve; the orchestrator treats it as failed and routes to Iterate',
        },
      ],
    });
  });
});

describe("rule 6: failing F-criteria go to Iterate", () => {
  it("names every failing criterion, in envelope order", () => {
    const verdict = verdictOf(envelope({ f_criteria: { F1: "pass", F3: "fail", F2: "fail" } }));
    expect(verdict).toEqual({
      ...commitVerdict,
      route: "iterate",
      failing_criteria: ["F3", "F2"],
      reasons: [
        { rule: "R6", route: "iterate", path: "f_criteria.F3", message: 'F3 is "fail": route to Iterate with F3 as the entry point' },
        { rule: "R6", route: "iterate", path: "f_criteria.F2", message: 'F2 is "fail": route to Iterate with F2 as the entry point' },
      ],
    });
  });
});

describe("rule 7: the novel_decisions entry schema", () => {
  const paths = (verdict: Verdict): string[][] => verdict.reasons.map((reason) => [reason.rule, reason.route, reason.path, reason.message]);

  it("sends a missing field back to Iterate, not to malformed", () => {
    const { decision_id: _id, ...rest } = decision();
    expect(paths(verdictOf(envelope({ novel_decisions: [rest] })))).toEqual([
      ["R7", "iterate", "novel_decisions[0].decision_id", "missing required field; ask the implementer to fill in the decision's trade-off payload"],
    ]);
  });

  it.each(["user_impact", "performance", "speed", "cost"])("rejects %s when empty or n/a", (field) => {
    const options = [{ ...(decision().options as Record<string, unknown>[])[0], [field]: "N/A" }, { ...(decision().options as Record<string, unknown>[])[1], [field]: " " }];
    expect(paths(verdictOf(envelope({ novel_decisions: [decision({ options })] })))).toEqual([
      ["R7", "iterate", `novel_decisions[0].options[0].${field}`, 'must not be "n/a": describe the effect, e.g. "none — internal-only change" or "unknown — depends on …"'],
      ["R7", "iterate", `novel_decisions[0].options[1].${field}`, 'must not be empty; got " "'],
    ]);
  });

  it("requires options, a recommended_default naming one, unique ids and a known confidence", () => {
    expect(paths(verdictOf(envelope({ novel_decisions: [decision({ options: [] })] })))).toEqual([
      ["R7", "iterate", "novel_decisions[0].options", "needs at least 1 entry"],
      ["R7", "iterate", "novel_decisions[0].recommended_default", '"A" matches no option id (options: ); name the recommended option\'s id'],
    ]);
    const twins = [(decision().options as unknown[])[0], (decision().options as unknown[])[0]];
    expect(paths(verdictOf(envelope({ novel_decisions: [decision({ options: twins, confidence: "medium" })] })))).toEqual([
      ["R7", "iterate", "novel_decisions[0].confidence", 'must be one of "high", "med", "low"; got "medium" (the contract spells it "med")'],
    ]);
    expect(paths(verdictOf(envelope({ novel_decisions: [decision({ options: twins })] })))).toEqual([
      ["R7", "iterate", "novel_decisions[0].options[1].id", 'duplicate option id "A": option ids must be unique so recommended_default names one option'],
    ]);
  });

  it("rejects an entry that is not a mapping", () => {
    expect(paths(verdictOf(envelope({ novel_decisions: ["just do it"] })))).toEqual([
      ["R7", "iterate", "novel_decisions[0]", "must be a mapping with decision_id, decision, options, recommended_default, confidence and reasoning; got string"],
    ]);
  });

  it("escalates a complete decision with confidence low", () => {
    expect(paths(verdictOf(envelope({ novel_decisions: [decision({ confidence: "low" })] })))).toEqual([
      ["R7", "escalate", "novel_decisions[0].confidence", 'decision "d1" has confidence "low": the implementer cannot pick well, so surface its trade-offs to a person even in long mode'],
    ]);
  });

  it("fixes an incomplete entry before escalating or resolving", () => {
    const raw = envelope({ status: "blocked", novel_decisions: [decision({ confidence: "low" }), decision({ decision_id: "d2", cost: undefined, recommended_default: "Z" })] });
    const verdict = verdictOf(raw);
    expect([verdict.route, ...verdict.followups.map((finding) => `${finding.rule}:${finding.route}`)]).toEqual(["iterate", "R7:escalate", "R4:resolve_decisions"]);
  });
});

describe("status routing and precedence", () => {
  it.each([
    ["scope_breach", "escalate"],
    ["deferred_architecture", "escalate"],
    ["concurrent_modification_detected", "escalate"],
    ["failed", "iterate"],
    ["plan_malformed", "iterate"],
    ["evidence_stale", "iterate"],
    ["needs_dependency", "iterate"],
    ["completed", "commit"],
    ["fixed", "commit"],
    ["partial", "commit"],
    ["", "commit"],
  ])("status %j routes to %s", (status, route) => {
    const verdict = verdictOf(envelope({ status, needed_file: "x.ts" }));
    expect([verdict.route, verdict.status]).toEqual([route, status === "" ? "completed" : status]);
  });

  it("orders: status > rule-7 repair > low confidence > rule 4 > rule 3 > rule 6", () => {
    const raw = envelope({
      synthesis_attestation: { a: "applied" },
      decision_ledger: [ledgerEntry("a")],
      novel_decisions: [decision({ confidence: "low" })],
      f_criteria: { F1: "fail" },
    });
    const rules = (verdict: Verdict): string[] => [...verdict.reasons, ...verdict.followups].map((finding) => `${finding.rule}:${finding.route}`);
    expect(rules(verdictOf(raw, { plan: plan("a") }))).toEqual(["R7:escalate", "R3:scope_review", "R6:iterate"]);
    expect(rules(verdictOf({ ...raw, status: "failed" }, { plan: plan("a") }))).toEqual(["STATUS:iterate", "R7:escalate", "R3:scope_review", "R6:iterate"]);
  });

  it("reports malformed reasons only, not routes computed from a broken envelope", () => {
    const verdict = verdictOf(without("task_id", envelope({ f_criteria: { F1: "fail" }, novel_decisions: [{}] })));
    expect([verdict.route, verdict.reasons.length, verdict.followups]).toEqual(["malformed", 1, []]);
  });
});

describe("warnings never change the route", () => {
  it("flags unknown fields, long notes, mixed and duplicate paths, and lines without files", () => {
    const verdict = verdictOf(
      envelope({
        capabilites_used: [],
        notes: "word ".repeat(201),
        files_changed: ["/abs/x.ts", "rel/y.ts", "rel/y.ts"],
      }),
    );
    expect(verdict.route).toBe("commit");
    expect(verdict.warnings).toEqual([
      { rule: "NOTE", path: "capabilites_used", message: "unknown field, ignored; check the spelling against the envelope contract" },
      { rule: "NOTE", path: "notes", message: "201 words; the contract asks for at most 200" },
      { rule: "NOTE", path: "files_changed", message: "mixes 1 absolute and 2 repo-relative paths; use one form" },
      { rule: "NOTE", path: "files_changed", message: 'lists "rel/y.ts" more than once' },
    ]);
    expect(verdictOf(envelope({ files_changed: [] })).warnings).toEqual([{ rule: "NOTE", path: "files_changed", message: "is empty but loc_added/loc_removed are 10/2" }]);
    expect(verdictOf(envelope({ status: "scope_breach" })).warnings).toEqual([{ rule: "NOTE", path: "needed_file", message: "a scope_breach envelope should name the needed_file and why" }]);
  });
});

describe("--check-ledger inside the check", () => {
  it("adds ledger errors as malformed reasons and keeps the WARN as a warning", () => {
    const raw = envelope({ synthesis_attestation: { a: "applied", b: "applied" }, decision_ledger: [ledgerEntry("a", { evidence_file: null })] });
    expect(verdictOf(raw).route).toBe("commit");
    const verdict = verdictOf(raw, { checkLedger: true });
    expect(verdict).toEqual({
      ...commitVerdict,
      route: "malformed",
      status: null,
      checked_ledger: true,
      plan: { source: "inferred", dimensions: ["a", "b"] },
      reasons: [{ rule: "LEDGER", route: "malformed", path: "decision_ledger", message: 'attested dimension "b" has no ledger entry; add one with dimension: "b" and the five other fields' }],
      warnings: [
        {
          rule: "LEDGER",
          path: "decision_ledger[0].evidence_file",
          message:
            'WARN: owner is "plan" but evidence_file is null; a plan-prescribed decision should point at the file where it shows in code (null is meant for implementer-owned non-code decisions)',
        },
      ],
    });
  });

  it("does not repeat a missing ledger per dimension", () => {
    const verdict = verdictOf(envelope({ synthesis_attestation: { a: "applied" } }), { checkLedger: true });
    expect(verdict.reasons.map((reason) => `${reason.rule} ${reason.path}`)).toEqual(["R1 decision_ledger"]);
  });
});
