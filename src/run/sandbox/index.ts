/** The sandbox room: everything the agent's code runs is wrapped here (ADR 0077). */
export { sandboxCommand, SANDBOX_HOME } from "./command.ts";
export { sandboxEnvironment, SANDBOX_PATH } from "./env.ts";
export { isRoot, matchOwner, recordOwnership, restoreOwnership, sandboxOwner, type Ownership } from "./owner.ts";
export { INSTALL_HINT, probeSandbox, probeSandboxUncached } from "./probe.ts";
export * from "./types.ts";
export { defaultRunSandbox } from "./default.ts";
export { unsandboxedRefusal } from "./policy.ts";
