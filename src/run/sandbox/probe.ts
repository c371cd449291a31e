/**
 * Finding the sandbox: bubblewrap on PATH (or ARMSTUDY_BWRAP), its version, and a self-test — one
 * real sandboxed command that must see an empty $HOME, no /etc/shadow and no parent environment.
 * A bwrap that is missing or fails the test means no sandbox, with the reason and what to install.
 * The answer is kept for the process: every run of a study gets the same one.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { type GroupSupport, probeGroups } from "./cgroup.ts";
import { sandboxCommand } from "./command.ts";
import { DEFAULT_SANDBOX_LIMITS, type Sandbox, type SandboxLimits } from "./types.ts";

export const INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: `apt-get update && apt-get install -y bubblewrap`; Fedora: `dnf install bubblewrap`)";

export interface ProbeSandboxOptions {
  env: NodeJS.ProcessEnv;
  /** `--no-sandbox`: the user chose to run unconfined. */
  disabled?: boolean;
  limits?: SandboxLimits;
  /** What the cgroup probe found (a test gives its own); default probed once per process. */
  groups?: GroupSupport;
}

function findBwrap(env: NodeJS.ProcessEnv): string | null {
  if (env.ARMSTUDY_BWRAP !== undefined && env.ARMSTUDY_BWRAP !== "") return existsSync(env.ARMSTUDY_BWRAP) ? env.ARMSTUDY_BWRAP : null;
  for (const dir of [...(env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/local/bin"]) {
    if (dir !== "" && existsSync(join(dir, "bwrap"))) return join(dir, "bwrap");
  }
  return null;
}

/** The marker the self-test prints only when every condition holds inside. */
const SELF_TEST_OK = "armstudy-sandbox-ok";
const SELF_TEST = `test ! -e /etc/shadow && test -z "$(ls -A "$HOME")" && test -z "\${ARMSTUDY_SELF_TEST_SECRET:-}" && touch probe && echo ${SELF_TEST_OK}`;

export function probeSandboxUncached(options: ProbeSandboxOptions): Sandbox {
  if (options.disabled === true) return { kind: "none", reason: "--no-sandbox was given", chosen: true };
  const bin = findBwrap(options.env);
  if (bin === null) return { kind: "none", reason: `bubblewrap (bwrap) was not found; ${INSTALL_HINT}`, chosen: false };
  const versionRun = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 10_000 });
  const version = (versionRun.stdout ?? "").trim().replace(/^bubblewrap\s+/, "");
  if (versionRun.status !== 0 || version === "") {
    return { kind: "none", reason: `${bin} --version failed (${versionRun.error?.message ?? `exit ${versionRun.status}`}); ${INSTALL_HINT}`, chosen: false };
  }
  const sandbox: Sandbox = { kind: "bwrap", bin, version, limits: options.limits ?? DEFAULT_SANDBOX_LIMITS };
  const dir = mkdtempSync(join(tmpdir(), "armstudy-sandbox-probe-"));
  try {
    const command = sandboxCommand(sandbox, { argv: ["sh", "-c", SELF_TEST], dir, network: "none" }, { ...options.env, ARMSTUDY_SELF_TEST_SECRET: "x" });
    const run = spawnSync(command.file, command.args, { env: command.env, encoding: "utf8", timeout: 20_000 });
    if (run.status !== 0 || !(run.stdout ?? "").includes(SELF_TEST_OK) || !existsSync(join(dir, "probe"))) {
      const why = `${run.error?.message ?? ""} ${(run.stderr ?? "").trim().split("\n").at(-1) ?? ""}`.trim();
      return { kind: "none", reason: `bubblewrap ${version} at ${bin} failed its self-test (exit ${run.status ?? run.signal}${why ? `: ${why}` : ""})`, chosen: false };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Per-run limits where a cgroup can be made (ADR 0114); else the per-process ones above.
  return { ...sandbox, groups: options.groups ?? probeGroups() };
}

let cached: { key: string; sandbox: Sandbox } | null = null;

/** `probeSandboxUncached`, once per process for the same inputs. */
export function probeSandbox(options: ProbeSandboxOptions): Sandbox {
  const key = JSON.stringify([options.disabled === true, options.env.ARMSTUDY_BWRAP ?? "", options.env.PATH ?? "", options.limits ?? null, options.groups ?? null]);
  if (cached?.key !== key) cached = { key, sandbox: probeSandboxUncached(options) };
  return cached.sandbox;
}
