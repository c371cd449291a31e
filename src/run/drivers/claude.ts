/**
 * The Claude Code driver: runs the real client as
 * `claude -p --output-format stream-json --verbose` in the work directory with the handoff as its
 * prompt (launch data: offline-setup.ts) and maps its event stream to run-record events.
 */
import type { AgentRunner } from "../agent-contract.ts";
import { createDriver, type DriverConfig } from "./driver.ts";

export function claudeDriver(config: DriverConfig): AgentRunner {
  return createDriver("claude", config);
}
