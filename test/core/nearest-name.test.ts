import { describe, expect, it } from "vitest";
import { editDistance, likelyMeant, nearestName } from "../../src/core/nearest-name.ts";

describe("nearestName and likelyMeant", () => {
  const sections = ["intro", "reporting", "permission", "base", "x"];

  it("counts a swap of neighbours as one edit", () => {
    expect([editDistance("ab", "ba"), editDistance("reportng", "reporting"), editDistance("outro", "intro"), editDistance("", "abc")]).toEqual([1, 1, 2, 3]);
  });

  it("nearestName takes anything within two edits; likelyMeant only a third of the name's length, and nothing under three letters", () => {
    const typed = ["reportng", "outro", "bse", "a", "permision", "zzzzzz", "intro"];
    expect(typed.map((name) => [name, nearestName(name, sections), likelyMeant(name, sections)])).toEqual([
      ["reportng", "reporting", "reporting"],
      ["outro", "intro", null],
      ["bse", "base", "base"],
      ["a", "x", null],
      ["permision", "permission", "permission"],
      ["zzzzzz", null, null],
      // The name itself is not a near miss of itself.
      ["intro", null, null],
    ]);
  });
});
