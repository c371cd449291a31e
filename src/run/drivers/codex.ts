/**
 * The codex driver: runs the real client as `codex exec --json` in the work directory with the handoff as
 * its prompt (launch data: offline-setup.ts) and maps its event stream to run-record events.
 */
import type { AgentRunner } from "../agent-contract.ts";
import { createDriver, type DriverConfig } from "./driver.ts";

export function codexDriver(config: DriverConfig): AgentRunner {
  return createDriver("codex", config);
}
