/**
 * The pi driver: runs the real client as `pi --mode json` in the work directory with the handoff as
 * its prompt (launch data: offline-setup.ts) and maps its event stream to run-record events.
 */
import type { AgentRunner } from "../agent-contract.ts";
import { createDriver, type DriverConfig } from "./driver.ts";

export function piDriver(config: DriverConfig): AgentRunner {
  return createDriver("pi", config);
}
