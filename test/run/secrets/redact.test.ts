import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactText, redactValue, secretsFromEnv } from "../../../src/run/secrets/redact.ts";
import { urlKeyProblem } from "../../../src/run/secrets/key-host.ts";

describe("secretsFromEnv", () => {
  it("takes credential-named values and URL passwords, skipping short values and ordinary names", () => {
    expect(
      secretsFromEnv({
        OPENAI_API_KEY: "sk-0123456789",
        GH_PAT: "ghp_abcdefghij",
        DATABASE_URL: "postgres://app:hunter2hunter2@db:5432/x",
        SHORT_TOKEN: "abc",
        PATH: "/usr/bin:/bin",
        HOME: "/root/very/long/home",
      }),
    ).toEqual([
      { value: "sk-0123456789", name: "OPENAI_API_KEY" },
      { value: "ghp_abcdefghij", name: "GH_PAT" },
      { value: "hunter2hunter2", name: "DATABASE_URL" },
    ]);
  });
});

describe("redactText", () => {
  it("replaces the value as written, URL-encoded and JSON-escaped, longest first", () => {
    const secrets = [{ value: "k/ey+\"value", name: "A_KEY" }, { value: "k/ey+\"value-long", name: "B_KEY" }];
    expect(redactText(`x k/ey+"value-long y ${encodeURIComponent('k/ey+"value')} z ${JSON.stringify('k/ey+"value')}`, secrets)).toEqual(
      'x [redacted B_KEY] y [redacted A_KEY] z "[redacted A_KEY]"',
    );
  });

  it("property: no secret survives in any text it is hidden in", () => {
    // A secret with a bracket could be re-formed by the mark's own "[" or "]" next to the text; keys have none.
    const secret = fc.string({ minLength: 8, maxLength: 40 }).filter((s) => !/[[\]]/.test(s) && !"[redacted]".includes(s));
    fc.assert(
      fc.property(fc.string(), secret, fc.string(), fc.string(), (before, value, middle, after) => {
        const text = `${before}${value}${middle}${encodeURIComponent(value)}${after}`;
        const out = redactText(text, [value]);
        return !out.includes(value) && !out.includes(encodeURIComponent(value));
      }),
    );
  });

  it("redacts keys and values of nested objects", () => {
    expect(redactValue({ "sk-12345678": ["a sk-12345678 b", 3, null, { t: "sk-12345678" }] }, ["sk-12345678"])).toEqual({
      "[redacted]": ["a [redacted] b", 3, null, { t: "[redacted]" }],
    });
  });
});

describe("urlKeyProblem", () => {
  it("property: a URL whose query names a key, token or password is refused", () => {
    const name = fc.constantFrom("api_key", "apikey", "key", "access_token", "token", "password", "auth", "sig", "X-Api-Key");
    fc.assert(
      fc.property(name, fc.string({ minLength: 1, maxLength: 20 }), (param, value) => {
        const url = `https://llm.example.test/v1?${encodeURIComponent(param)}=${encodeURIComponent(value)}`;
        return urlKeyProblem(url) === `base URL carries a key in its query (parameter "${param}"); put the key in an environment variable and name it with #ENV`;
      }),
    );
  });

  it("keeps ordinary query parameters", () => {
    expect(urlKeyProblem("https://x.openai.azure.com/openai?api-version=2024-10-21")).toEqual(null);
  });
});
