/**
 * The classifier bench's inputs, 1 MiB each (see classifier.bench.ts), shared with scripts/experiments/classifier-ab.ts
 * and classifier-dump.ts so an A/B reads the very texts the bench does.
 */
const MiB = 1024 * 1024;

function fill(unit: string): string {
  return unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
}

const step = [
  "1. **Read the importer.** `src/sessions/formats/pi.ts` parses v1–v3; keep `readLines()` as it is.",
  "   - Add a `branch` field, and carry `parentId` through `normalize()`.",
  "",
  "```ts",
  "export function normalize(entry: PiEntry): RunEvent[] {",
  "  return entry.type === \"message\" ? fromMessage(entry) : [];",
  "}",
  "```",
  "",
  "Risks: quoting `<proposed_plan>` in a comment is fine, it is inline code.",
  "",
].join("\n");
let adversarialRuns = "";
for (let n = 1; adversarialRuns.length < MiB / 2; n += 1) adversarialRuns += `${"`".repeat(n % 40 + 1)} <proposed_plan `;
export function classifierInputs(): Record<string, string> {
  return {
    "realistic plan reply": `Here is the plan.\n\n<proposed_plan>\n${fill(step).slice(0, MiB - 100)}\n</proposed_plan>\n\nTell me if the order matters.`,
    "short lines": fill(["ok", "- a", "", "x", "b c", "`", "1.", "  "].join("\n") + "\n"),
    "adversarial: backtick runs, open fences, tag noise": `${adversarialRuns}\n\n${fill("```\n<proposed_plan>\n~~~\n</plan_blocked>\n    ```\n``x`` <plan_blocked <<<<\n` `` <proposed_plan> ` </proposed_plan> ``\n").slice(0, MiB / 2)}`,
    "adversarial: a tag on every line": fill("`<proposed_plan>`\n<plan_blocked>\n"),
    // One paragraph with a tag in code on every line: no tag outside code, so no early decision (ADR 0136), and every line is read.
    "adversarial: a tag in code on every line": fill("`<proposed_plan>`\n"),
    // Short lines that each may hold a tag (ADR 0138's "what is left", docs/decisions/0159): every
    // line is read, in a paragraph that holds a tag or between tag lines.
    "adversarial: `<p` on every line": fill("<p\n"),
    "adversarial: a tag line, then `<pz` lines": `x <proposed_plan>\n${fill("<pz\n")}`,
    "adversarial: a tag line, then `` ```x``` `` lines": `x <proposed_plan>\n${fill("```x```\n")}`,
    "adversarial: tags separated by blank lines": fill("<plan_blocked>\n\n</plan_blocked>\n\n"),
  };
}
