/**
 * `scripted:FILE` — the bundled deterministic test double. It plays a persona (scripted-persona.ts)
 * over the fixture handoff through real tool calls, deciding each reply from the conversation it
 * is sent (scripted-play.ts), so a continuation resumes it and the same seed gives the same run.
 * Its usage is our own o200k count of the request and the reply (`source: "counted"`), taken
 * from the agent loop's counter so that nothing the loop has counted is counted again. It never
 * throws: a request it cannot play is a reply with `stop: "error"`.
 */
import type { ModelClient, ModelReply, ModelRequest } from "../../core/model.ts";
import { deriveSeed, seededRng } from "../../core/random.ts";
import { processRequestCounter, type RequestTokenCounter } from "../agent-tokens.ts";
import { loadPersona, type Persona } from "./scripted-persona.ts";
import { playAgentTurn, playClaimCheck, type Random } from "./scripted-play.ts";
import { isPlanRequest, playPlanTurn } from "./scripted-plan.ts";

export { loadPersona, PersonaError, type Persona, type PersonaStep, type PersonaTraits } from "./scripted-persona.ts";
export { exitCodeOf, playAgentTurn, playClaimCheck } from "./scripted-play.ts";

export interface ScriptedOptions {
  seed: number;
  runIndex?: number;
  /** The agent loop's counter (default: the process's, which the loop also defaults to). */
  counter?: RequestTokenCounter;
}

/** One draw from a generator seeded by (seed, run index, salt): the same salt always draws the same. */
export function seededRandom(seed: number, runIndex: number): Random {
  return (salt) => seededRng(deriveSeed(0, `${seed}:${runIndex}:${salt}`))();
}

export class ScriptedClient implements ModelClient {
  readonly id: string;
  readonly isTestDouble = true;
  private readonly random: Random;
  private readonly counter: RequestTokenCounter;

  constructor(
    readonly persona: Persona,
    options: ScriptedOptions,
  ) {
    this.id = `scripted:${persona.name}`;
    this.random = seededRandom(options.seed, options.runIndex ?? 0);
    this.counter = options.counter ?? processRequestCounter();
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
    const usage = (text: string, toolCalls: ModelReply["toolCalls"]) => ({
      input: this.counter.request(request),
      cachedInput: 0,
      output: this.counter.reply({ text, toolCalls }),
      reasoning: 0,
      source: "counted" as const,
    });
    if (signal?.aborted) {
      return { text: "", toolCalls: [], stop: "aborted", usage: usage("", []), errorMessage: "the request was aborted", model: this.id, durationMs: 0 };
    }
    try {
      const played =
        request.meta?.purpose === "claim_check"
          ? playClaimCheck(this.persona, request)
          : request.meta?.purpose === "compaction"
            ? { text: `Notes from the scripted test double (persona ${this.persona.name}): the earlier turns are listed in the references below.`, toolCalls: [] }
            : isPlanRequest(request)
              ? playPlanTurn(this.persona, request)
              : playAgentTurn(this.persona, request, this.random);
      return {
        text: played.text,
        toolCalls: played.toolCalls,
        stop: played.toolCalls.length > 0 ? "tool_calls" : "end_turn",
        usage: usage(played.text, played.toolCalls),
        model: this.id,
        durationMs: 0,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { text: "", toolCalls: [], stop: "error", usage: usage("", []), errorMessage: `scripted persona ${this.persona.name}: ${message}`, model: this.id, durationMs: 0 };
    }
  }
}

/** Loads the persona file and returns its client. Throws PersonaError for a bad persona file. */
export async function createScriptedClient(file: string, options: ScriptedOptions): Promise<ModelClient> {
  return new ScriptedClient(await loadPersona(file), options);
}
