/// <reference lib="dom" />
/**
 * The run page: what the run was and how it ended, then its whole trajectory as a timeline.
 * j/k or the arrows move between steps, Enter opens one, and the address follows the selection
 * (#run/ARM/I/step/N), so any step can be linked.
 */
import type { PageIndex, RunEntry, RunPayload } from "./data.ts";
import { formatMs, formatTokens, h } from "./dom.ts";
import { compareHref, runHref } from "./routes.ts";
import type { BodyContext } from "./step-body.ts";
import { buildSteps, type Step } from "./steps.ts";
import { Timeline } from "./timeline.ts";
import type { View } from "./view.ts";

/** Where the harness acted: the steps `n` / `p` jump between. */
const DECISIONS: ReadonlySet<string> = new Set(["user", "policy", "claim", "goal", "compaction", "retry", "reply"]);

/** A sub-agent's own timeline inside its parent's step (sessions): built when the step opens. */
function subagentTimeline(payload: RunPayload, ref: string, prefix: string): Node | null {
  const sub = payload.subagents.find((candidate) => candidate.ref === ref);
  if (sub === undefined) return null;
  const subPayload: RunPayload = { events: sub.events, warnings: [], acceptance: [], patch: null, subagents: [] };
  const steps = buildSteps(subPayload);
  const timeline = new Timeline(steps, bodyContext(subPayload, null, steps, () => "#", prefix), { idPrefix: `${prefix}s`, hrefOf: () => "#" });
  return h("div", { class: "nested" }, h("div", { class: "muted" }, `sub-agent ${ref}: ${steps.length} steps`), timeline.element);
}

export function bodyContext(payload: RunPayload, arm: PageIndex["arms"][number] | null, steps: readonly Step[], stepHref: (n: number) => string, prefix: string): BodyContext {
  const quotes = steps.flatMap((step) => step.evidence.filter((match) => match.step !== null).map((match) => match.quote));
  const outputOf = (n: number): string | null => steps[n - 1]?.result?.output ?? null;
  return { payload, arm, stepHref, quotes, outputOf, subagent: (ref) => subagentTimeline(payload, ref, `${prefix}${ref.replace(/[^\w-]/g, "_")}-`) };
}

export function runView(index: PageIndex, run: RunEntry, payload: RunPayload, step: number | null, go: (hash: string, replace?: boolean) => void): View {
  const steps = buildSteps(payload);
  const arm = index.arms.find((candidate) => candidate.name === run.arm) ?? null;
  const href = (n: number) => runHref(run, n);
  const timeline = new Timeline(steps, bodyContext(payload, arm, steps, href, "s"), {
    idPrefix: "step-",
    hrefOf: href,
    onSelect: (n) => go(href(n), true),
  });
  const others = index.runs.filter((other) => other.runIndex === run.runIndex && other.task === run.task && other.arm !== run.arm);
  const element = h(
    "main",
    { class: "run" },
    index.kind === "study" ? h("nav", null, h("a", { href: "#study", class: "back" }, `← ${index.title}`)) : null,
    h("h1", null, index.kind === "study" ? `${run.task !== null ? `${run.task} · ` : ""}${run.arm} run ${run.runIndex}` : index.title),
    index.kind === "session" ? h("p", { class: "desc" }, index.description) : null,
    index.testDouble && arm?.testDouble !== false ? h("p", { class: "banner" }, "Model: the scripted test double — this trajectory shows the harness's mechanics, not a real model's behaviour.") : null,
    h(
      "p",
      { class: "meta" },
      `status ${run.status}`,
      run.reason ? ` — ${run.reason}` : "",
      run.checks.passed + run.checks.failed > 0 ? ` · checks ${run.checks.passed}/${run.checks.passed + run.checks.failed}` : "",
      ` · ${run.toolCalls} tool calls · ${formatTokens(run.tokens)} tokens · ${formatMs(run.wallMs)} · ${steps.length} steps`,
    ),
    others.length > 0 ? h("p", { class: "compare-links" }, "Side by side with ", ...others.flatMap((other, i) => [i > 0 ? ", " : "", h("a", { href: compareHref(run, other) }, `${other.arm} run ${other.runIndex}`)])) : null,
    ...payload.warnings.map((warning) => h("p", { class: "warn" }, `record warning: ${warning}`)),
    h("p", { class: "keys muted" }, "j/k or ↑/↓ move between steps · n/p jump to the next or previous message, reply end, policy decision or claim check · Enter opens or folds a step · Esc goes back"),
    timeline.element,
  );
  return {
    element,
    mounted: () => {
      if (step !== null) {
        timeline.toggle(step, true);
        timeline.select(step, true, "start");
      }
    },
    navigate(route) {
      if (route.view !== "run" || route.arm !== run.arm || route.runIndex !== run.runIndex || route.task !== run.task || route.step === null) return false;
      timeline.toggle(route.step, true);
      timeline.select(route.step, true, "start");
      return true;
    },
    onKey(event) {
      if (event.key === "j" || event.key === "ArrowDown") timeline.move(1);
      else if (event.key === "k" || event.key === "ArrowUp") timeline.move(-1);
      else if (event.key === "n") timeline.seek(DECISIONS, 1);
      else if (event.key === "p") timeline.seek(DECISIONS, -1);
      else if (event.key === "Enter" && timeline.current > 0) timeline.toggle(timeline.current);
      else if (event.key === "Escape" && index.kind === "study") go("#study");
      else return false;
      return true;
    },
    dispose: () => timeline.dispose(),
  };
}
