/**
 * An arm as loaded from `arms/<name>/arm.yaml`: its compiled prompt pack, the turn-end policies
 * it applies, and which agent runs it. The loader (this folder) validates the YAML; the agent
 * loop, the external drivers and the study runner consume this shape.
 */
import type { PromptPack } from "../../core/prompt/types.ts";
import type { ContextSettings } from "../../core/context/settings.ts";

/** One turn-end control and its options, as written in arm.yaml (`policies:`). */
export interface PolicySpec {
  name: "none" | "todoGate" | "everyReplyCheck" | "goal" | "workSlice" | "loopGuard" | "measureLoop" | "goalQueue";
  options?: Record<string, unknown>;
}

/** Who runs the arm: our own agent loop, or a real client driven as an external process. */
export type AgentKind = "armstudy" | "codex" | "claude" | "pi";

export interface CompiledPrompt {
  /** Exactly what the model sees as the system prompt. */
  text: string;
  /** The stable prefix (the provider-cache identity) and its sha-256. */
  stablePrefix: string;
  prefixHash: string;
  prefixTokens: number;
}

export interface LoadedArm {
  name: string;
  /** The arm's folder. */
  dir: string;
  description: string;
  agent: AgentKind;
  /** Null for real-client arms that use the client's own prompt. */
  prompt: CompiledPrompt | null;
  /**
   * The pack behind `prompt` (sections with their budgets), for recompiling with run-time inputs:
   * `compile(arm.pack, inputs)` from src/core/prompt/compile.ts. Null for real-client arms; may be
   * absent on hand-built arms.
   */
  pack?: PromptPack | null;
  policies: PolicySpec[];
  /** Goal limits for arms that run the goal loop. */
  goal?: { rounds?: number; hours?: number };
  /** `plan`: a plan run (ADR 0104): read-only tools, the reply classified, one repair turn. Absent: `work`. */
  mode?: "work" | "plan";
  /** Plan runs: whether a reply with no block is a conclusion (`valid`) or sent back (`repair`). */
  plan?: { noPlan: "valid" | "repair" };
  /** Context management in our loop (arm.yaml `context:`); absent means `auto`. */
  context?: ContextSettings;
}
