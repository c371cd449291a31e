/**
 * Endpoints a driven client can talk to. `personaEndpoint` serves the run's own ModelClient
 * (normally the scripted test double) over the client's wire protocol on 127.0.0.1, one server
 * per run, so a real Codex, Claude Code or pi binary plays the handoff offline.
 */
import type { ToolSpec } from "../../core/model.ts";
import type { AgentRunOptions } from "../agent-contract.ts";
import { CLIENT_PROFILES } from "../models/server/client-profiles.ts";
import { startPersonaServer } from "../models/server/persona-server.ts";
import type { ClientName } from "./clients.ts";
import type { Endpoint } from "./driver.ts";

export function personaEndpoint(client: ClientName, tools: ToolSpec[] = []): (run: AgentRunOptions) => Promise<Endpoint> {
  return async (run) => {
    const server = await startPersonaServer({ profile: CLIENT_PROFILES[client], persona: run.model, workDir: run.dir, tools });
    // The key is a placeholder the persona server never checks; real keys never reach a client here.
    return { baseUrl: server.url, model: "persona", apiKey: "armstudy-persona", close: () => server.close() };
  };
}
