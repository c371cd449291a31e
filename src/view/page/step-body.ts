/// <reference lib="dom" />
/**
 * The unfolded body of one timeline step: the full text of a message or reply, a tool call's
 * arguments and output (long output folded), a claim check's evidence with where it was found,
 * the acceptance checks and the highlighted diff.
 */
import type { ArmEntry, RunPayload } from "./data.ts";
import { type Child, h, marked } from "./dom.ts";
import { highlightPatch } from "./highlight.ts";
import type { Step } from "./steps.ts";

/** Output longer than this many lines is folded to its first lines, with a button for the rest. */
export const FOLD_LINES = 24;

export interface BodyContext {
  payload: RunPayload;
  arm: ArmEntry | null;
  /** Link to another step of the same run. */
  stepHref: (n: number) => string;
  /** Renders a sub-agent's timeline (sessions). */
  subagent: (ref: string) => Node | null;
  /** Evidence quoted by claim checks, highlighted wherever it appears in tool output. */
  quotes: readonly string[];
  /** The tool output of step n (for evidence excerpts), or null. */
  outputOf: (n: number) => string | null;
}

/** The lines of `output` around `offset`, as an excerpt with the quote marked. */
export function excerpt(output: string, offset: number, quote: string, around = 2): HTMLElement {
  const before = output.slice(0, offset).split("\n");
  const after = output.slice(offset + quote.length).split("\n");
  const head = before.slice(-1 - around);
  const tail = after.slice(0, around + 1);
  const text = `${head.join("\n")}${quote}${tail.join("\n")}`;
  const pre = h("pre", { class: "out excerpt" });
  if (before.length > head.length) pre.appendChild(document.createTextNode("…\n"));
  pre.appendChild(marked(text, [quote]));
  if (after.length > tail.length) pre.appendChild(document.createTextNode("\n…"));
  return pre;
}

export function folded(text: string, needles: readonly string[] = []): HTMLElement {
  const lines = text.split("\n");
  const pre = h("pre", { class: "out" });
  if (lines.length <= FOLD_LINES) {
    pre.appendChild(marked(text, needles));
    return pre;
  }
  const head = lines.slice(0, FOLD_LINES).join("\n");
  pre.appendChild(marked(head, needles));
  const more = h("button", { class: "more", type: "button" }, `show all ${lines.length} lines`);
  more.addEventListener("click", (event) => {
    event.stopPropagation();
    pre.textContent = "";
    pre.appendChild(marked(text, needles));
    more.remove();
  });
  return h("div", { class: "fold" }, pre, more);
}

function kv(rows: Array<[string, Child]>): HTMLElement {
  return h("table", { class: "kv" }, ...rows.map(([key, value]) => h("tr", null, h("th", null, key), h("td", null, value))));
}

function argumentsView(args: Record<string, unknown>): HTMLElement {
  const parts: HTMLElement[] = [];
  for (const [name, value] of Object.entries(args)) {
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    parts.push(h("div", { class: "arg" }, h("span", { class: "argname" }, name), folded(text ?? "null")));
  }
  return h("div", { class: "args" }, ...parts);
}

function patchView(patch: string): HTMLElement {
  const pre = h("pre", { class: "diff" });
  for (const line of highlightPatch(patch)) {
    const row = h("span", { class: `dl ${line.kind}` }, line.marker);
    for (const token of line.tokens) row.appendChild(token.cls === null ? document.createTextNode(token.text) : h("span", { class: `tk ${token.cls}` }, token.text));
    pre.appendChild(row);
    pre.appendChild(document.createTextNode("\n"));
  }
  return pre;
}

export function stepBody(step: Step, context: BodyContext): HTMLElement {
  const event = step.event;
  const body = h("div", { class: "body" });
  if (step.kind === "checks") {
    for (const check of context.payload.acceptance) {
      body.appendChild(
        h(
          "div",
          { class: `check ${check.passed ? "pass" : "fail"}` },
          h("div", { class: "checkhead" }, h("b", null, check.id), ` ${check.passed ? "passed" : "failed"}`, check.timedOut ? " (timed out)" : "", ` · exit ${check.exitCode ?? "none"} · ${Math.round(check.durationMs)} ms`),
          h("code", null, check.command),
          folded(check.output),
        ),
      );
    }
    return body;
  }
  if (step.kind === "diff") {
    body.appendChild(context.payload.patch && context.payload.patch.length > 0 ? patchView(context.payload.patch) : h("p", null, "The run left no changes."));
    return body;
  }
  if (event === null) return body;
  switch (event.type) {
    case "run.start": {
      const prefix = context.arm?.prefix ?? null;
      body.appendChild(
        kv([
          ["model", `${event.model}${event.testDouble ? " (the scripted test double)" : ""}`],
          ["source", event.source],
          ["prefix hash", h("code", null, event.prefixHash)],
          ["prefix tokens", String(event.prefixTokens)],
          ["seed", String(event.seed)],
          ["sandbox", event.sandbox ? `${event.sandbox.kind}${event.sandbox.version ? ` ${event.sandbox.version}` : ""} · network ${event.sandbox.network}${event.sandbox.reason ? ` · ${event.sandbox.reason}` : ""}` : "not recorded"],
        ]),
      );
      if (prefix?.sections) {
        body.appendChild(
          h(
            "table",
            { class: "grid" },
            h("tr", null, h("th", null, "section"), h("th", null, "chars"), h("th", null, "tokens")),
            ...prefix.sections.map((section) => h("tr", null, h("td", null, section.id), h("td", { class: "num" }, section.chars), h("td", { class: "num" }, section.tokens))),
          ),
        );
      } else body.appendChild(h("p", { class: "muted" }, prefix === null ? "The client's own prompt: its sections are not measured." : "Section sizes were not recorded."));
      break;
    }
    case "user.message":
    case "assistant.text":
      body.appendChild(folded(event.text));
      break;
    case "tool.call": {
      body.appendChild(argumentsView(event.arguments));
      const result = step.result;
      if (result === null) body.appendChild(h("p", { class: "muted" }, "No result was recorded for this call."));
      else {
        body.appendChild(
          h("div", { class: `resulthead ${result.ok ? "ok" : "bad"}` }, result.ok ? "ok" : "failed", result.exitCode !== undefined && result.exitCode !== null ? ` · exit ${result.exitCode}` : "", result.durationMs !== undefined ? ` · ${Math.round(result.durationMs)} ms` : "", result.rejected ? " · rejected by the person" : "", result.changedFiles?.length ? ` · changed ${result.changedFiles.join(", ")}` : ""),
        );
        body.appendChild(folded(result.output, context.quotes));
      }
      break;
    }
    case "tool.result":
      body.appendChild(folded(event.output, context.quotes));
      break;
    case "plan.update":
      body.appendChild(h("ul", { class: "plan" }, ...event.items.map((item) => h("li", { class: item.status }, `[${item.status === "completed" ? "x" : item.status === "in_progress" ? "~" : " "}] `, item.text))));
      break;
    case "claim.check": {
      body.appendChild(kv([["verdict", event.verdict], ["shield", event.shield], ["reason", event.reason]]));
      if (step.evidence.length === 0) body.appendChild(h("p", { class: "muted" }, "The check quoted no evidence."));
      for (const match of step.evidence) {
        body.appendChild(
          h(
            "div",
            { class: `evidence ${match.step === null ? "missing" : "found"}` },
            h("blockquote", null, h("mark", null, match.quote)),
            match.step === null ? h("span", { class: "bad" }, "not found in any tool output") : h("a", { href: context.stepHref(match.step) }, `found in step ${match.step}`),
            match.step === null ? null : excerpt(context.outputOf(match.step) ?? "", match.offset, match.quote.trim()),
          ),
        );
      }
      break;
    }
    case "model.request":
      body.appendChild(
        kv([
          ["purpose", event.purpose],
          ["input", `${event.input} (${event.cachedInput} cached${event.cacheWrite ? `, ${event.cacheWrite} written to cache` : ""})`],
          ["output", `${event.output}${event.reasoning > 0 ? ` (${event.reasoning} reasoning)` : ""}`],
          ["counted by armstudy", event.counted ? `${event.counted.input} in · ${event.counted.output} out` : "–"],
          ["usage source", event.usageSource],
          ["duration", `${Math.round(event.durationMs)} ms`],
          ["stop", event.stop ?? "–"],
          ["model", event.model ?? "–"],
          ["cost", event.costUsd !== undefined ? `$${event.costUsd.toFixed(4)}` : "–"],
        ]),
      );
      break;
    case "policy.decision":
      body.appendChild(kv([["policy", event.policy], ["decision", event.decision], ["reason", event.reason], ["status", event.status ?? "–"]]));
      break;
    case "goal.update":
      body.appendChild(kv([["from", event.from ?? "none"], ["to", event.to ?? "none"], ["by", event.by], ["reason", event.reason]]));
      break;
    case "reply.end":
      body.appendChild(kv([["reason", event.reason], ["error", event.errorMessage ?? "–"]]));
      break;
    case "compaction":
      body.appendChild(kv([["tokens before", String(event.tokensBefore ?? "unknown")], ["tokens after", String(event.tokensAfter ?? "unknown")]]));
      break;
    case "model.retry":
      body.appendChild(kv([["round", String(event.round)], ["attempt", String(event.attempt)], ["cause", event.cause], ["wait before the next", `${Math.round(event.waitMs)} ms`]]));
      body.appendChild(folded(event.message));
      break;
    case "run.end":
      body.appendChild(kv([["status", event.status], ["cause", event.cause ?? "–"], ["reason", event.reason ?? "–"], ["wall time", `${Math.round(event.wallMs)} ms`], ["usage", event.usage ? `${event.usage.input} in · ${event.usage.output} out (${event.usage.source}${event.usage.lowerBound ? ", a lower bound" : ""})` : "–"]]));
      break;
    case "note":
      body.appendChild(folded(event.text));
      break;
    case "subagent": {
      const nested = context.subagent(event.ref);
      body.appendChild(nested ?? h("p", { class: "muted" }, `The sub-agent's record (${event.ref}) is not in this page.`));
      break;
    }
    default:
      body.appendChild(h("pre", { class: "out" }, JSON.stringify(event, null, 2)));
  }
  return body;
}
