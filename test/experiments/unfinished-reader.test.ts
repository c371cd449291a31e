/**
 * The pure pieces of the unfinished-reader experiment (scripts/experiments, docs/decisions/0197): the dev-only loader and
 * its guard, projects from SOURCES.md, grouped folds, status-zone features and AUC. The cross-validated figures are the
 * script's to print (they take minutes), not a test's to assert.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertDevOnly, groupedFolds, heldOutNames, loadDevReplies, projectsFromSources } from "../../scripts/experiments/unfinished-data.ts";
import { LINE_CAP, tokens, unfinishedFeatures, zonesOf } from "../../scripts/experiments/unfinished-features.ts";
import { auc, fitPredictBayes } from "../../scripts/experiments/unfinished-fit.ts";
import { HELD_OUT_SPLITS, RETIRED_SPLITS, committedSplit } from "../core/report/split.ts";

describe("dev replies only", () => {
  it("holds every reply of splits 1–7 out, and the loader returns none of them; the retired 8 and 9 are dev (0219)", () => {
    const heldOut = heldOutNames();
    for (const spec of HELD_OUT_SPLITS) expect(committedSplit(spec).filter((file) => !heldOut.has(file))).toEqual([]);
    const dev = loadDevReplies(heldOut);
    expect(dev.filter((reply) => heldOut.has(reply.file))).toEqual([]);
    const retired = RETIRED_SPLITS.flatMap((spec) => committedSplit(spec));
    expect(dev.filter((reply) => retired.includes(reply.file)).length).toBe(retired.length);
    expect(dev.length).toBeGreaterThan(1000);
  });

  it("fails a run that lets a held-out reply through", () => {
    expect(() => assertDevOnly([{ file: "001-a.md" }, { file: "002-b.md" }], new Set(["002-b.md"]))).toThrow("unfinished reader: 1 held-out replies reached a dev-only path");
    expect(assertDevOnly([{ file: "001-a.md" }], new Set(["002-b.md"]))).toBeUndefined();
  });
});

describe("projects from SOURCES.md", () => {
  it("reads the repository column of source tables, written rows as written and local runs as local", () => {
    const sources = [
      "| file | session (in ../shared/sessions/) | line | repository | path in repository | commit | licence |",
      "|---|---|---|---|---|---|---|",
      "| 001-a.md | s.jsonl | 19 | owner/one | `p` | abc | MIT |",
      "| 002-b.md | s.jsonl | 20 | recorded locally: real client run | – | – | ours (MIT) |",
      "| 009-x.md | s.jsonl | 20 | owner/skipped | – | – | MIT |",
      "",
      "| file | what it covers |",
      "|---|---|",
      "| 003-c.md | a written shape |",
      "| file | agent (model) | line | repository | path in repository | commit | licence |",
      "| 004-d.md | Cursor | 3 | owner/two | `p` | def | MIT |",
    ].join("\n");
    expect([...projectsFromSources(sources, new Set(["001-a.md", "002-b.md", "003-c.md", "004-d.md"]))]).toEqual([
      ["001-a.md", "owner/one"],
      ["002-b.md", "local"],
      ["003-c.md", "written"],
      ["004-d.md", "owner/two"],
    ]);
  });
});

describe("grouped folds", () => {
  it("keeps a whole group in one fold and deals the largest groups first to the lightest fold", () => {
    const groups = ["a", "a", "a", "a", "b", "b", "c", "c", "d", "e"];
    const folds = groupedFolds(groups, 3, 7);
    for (const group of new Set(groups)) expect(new Set(folds.filter((_, i) => groups[i] === group)).size).toBe(1);
    // a (4) to fold 0; b and c (2 each) to folds 1 and 2; then d and e to the two lightest.
    const load = [0, 1, 2].map((f) => folds.filter((x) => x === f).length).sort();
    expect(load).toEqual([3, 3, 4]);
    expect(groupedFolds(groups, 3, 7)).toEqual(folds);
  });
});

describe("status-zone features", () => {
  it("lower-cases words, reads numbers as 0 and keeps ? and the marks", () => {
    expect(tokens("B1–B3 done; 2 remain ⏳. Go on?")).toEqual(["b1", "b3", "done", "0", "remain", "⏳", "go", "on", "?"]);
  });

  it("reads the first two statements, the last three lines and the status lines past the opening", () => {
    const reply = "Summary\n\nThe parser is in.\n\nDetails follow here.\nRemaining:\n- wire the CLI\n\n```\nnot read\n```\nI stopped before the docs.\nWant me to go on?";
    expect(zonesOf(reply)).toEqual({
      first: ["Summary", "The parser is in."],
      last: ["- wire the CLI", "I stopped before the docs.", "Want me to go on?"],
      status: ["Remaining:", "I stopped before the docs."],
    });
  });

  it("names zone unigrams and bigrams, shapes and the rule rows given, each once and sorted", () => {
    expect(unfinishedFeatures("Not done yet?", ["unfinished.not"])).toEqual(["f:?", "f:done", "f:done yet", "f:not", "f:not done", "f:yet", "f:yet ?", "l:?", "l:done", "l:done yet", "l:not", "l:not done", "l:yet", "l:yet ?", "r:unfinished.not", "shape:endsWithQuestion", "shape:noStatusLines"]);
    expect(unfinishedFeatures("")).toEqual(["shape:noStatusLines"]);
  });

  it("is total on any text, and a long line is read only to its cap", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const names = unfinishedFeatures(text);
        expect(names).toEqual([...new Set(names)].sort());
      }),
      { numRuns: 200 },
    );
    const long = `${"word ".repeat(LINE_CAP)}remaining`;
    expect(unfinishedFeatures(long).includes("f:remaining")).toBe(false);
  });
});

describe("AUC", () => {
  it("is 1 for a perfect ranking, 0.5 for ties, and undefined without both classes", () => {
    expect(auc([0.9, 0.8, 0.2, 0.1], [true, true, false, false])).toBe(1);
    expect(auc([0.1, 0.2, 0.8, 0.9], [true, true, false, false])).toBe(0);
    expect(auc([0.5, 0.5, 0.5], [true, false, false])).toBe(0.5);
    expect(auc([0.3, 0.5, 0.6], [true, false, true])).toBe(0.5);
    expect(auc([0.3], [true])).toBeNull();
  });
});

describe("naive Bayes", () => {
  it("learns a word that marks the positives of other projects, and scores only the test replies", () => {
    const features = [["s:remain", "f:a"], ["s:remain", "f:b"], ["f:a"], ["f:b"], ["f:a", "f:b"], ["s:remain", "f:a"], ["f:b"], ["s:remain"], ["f:a"]];
    const labels = [true, true, false, false, false, true, false, true, false];
    const group = ["p", "p", "p", "q", "q", "q", "r", "r", "r"];
    const fit = fitPredictBayes(features, labels, group, [0, 1, 2, 3, 4, 5], [6, 7], 1);
    expect(fit.probabilities.length).toBe(2);
    expect((fit.probabilities[1] as number) > 0.5 && (fit.probabilities[0] as number) < 0.5).toBe(true);
  });
});
