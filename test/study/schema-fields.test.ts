import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeZodIssues } from "../../src/study/errors.ts";
import { fieldsAt } from "../../src/study/schema-fields.ts";

const schema = z
  .object({
    name: z.string(),
    limits: z.object({ maxRounds: z.number(), maxHours: z.number() }).strict().optional(),
    checks: z.array(z.object({ id: z.string(), timeoutMs: z.number() }).strict()).min(1).default([]),
    repo: z.union([z.string(), z.object({ fixture: z.string() }).strict(), z.object({ git: z.string(), commit: z.string() }).strict()]),
  })
  .strict()
  .refine(() => true);

describe("fieldsAt", () => {
  it("reads the fields through refinements, optionals, defaults, arrays and every branch of a union", () => {
    expect({
      top: fieldsAt(schema, []),
      limits: fieldsAt(schema, ["limits"]),
      check: fieldsAt(schema, ["checks", 3]),
      repo: fieldsAt(schema, ["repo"]),
      leaf: fieldsAt(schema, ["name"]),
      missing: fieldsAt(schema, ["nowhere", "deeper"]),
      notAnIndex: fieldsAt(schema, ["checks", "id"]),
    }).toEqual({
      top: ["name", "limits", "checks", "repo"],
      limits: ["maxRounds", "maxHours"],
      check: ["id", "timeoutMs"],
      repo: ["fixture", "git", "commit"],
      leaf: [],
      missing: [],
      notAnIndex: [],
    });
  });
});

describe("describeZodIssues with the schema", () => {
  const describe_ = (value: unknown) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) throw new Error("expected issues");
    return describeZodIssues("x.yaml", parsed.error.issues, undefined, schema);
  };

  it("names the field a misspelt key was meant to be, or lists the fields when none is near", () => {
    expect(describe_({ name: "n", repo: "r", limits: { maxRound: 1, maxHours: 2 }, checks: [{ id: "a", timeoutMs: 1, timout: 2 }], zzz: 1 }).split("\n")).toEqual([
      'x.yaml: field limits.maxRounds: Invalid input: expected number, received undefined',
      'x.yaml: field limits: Unrecognized key: "maxRound"; did you mean "maxRounds"?',
      // More than two edits from every field: the fields are listed instead of a guess.
      'x.yaml: field checks.0: Unrecognized key: "timout"; the fields here are id, timeoutMs',
      'x.yaml: top level: Unrecognized key: "zzz"; the fields here are name, limits, checks, repo',
    ]);
  });

  it("without the schema, says what it said before", () => {
    const parsed = schema.safeParse({ name: "n", repo: "r", zzz: 1 });
    expect(parsed.success ? "" : describeZodIssues("x.yaml", parsed.error.issues)).toEqual('x.yaml: top level: Unrecognized key: "zzz"');
  });
});
