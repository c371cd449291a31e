/**
 * The environment a sandboxed command starts with: built from an allow-list, never copied from
 * armstudy's own. A credential cannot leak by a name nobody thought of (`DATABASE_URL`, `GH_PAT`),
 * because no name passes unless it is on this list.
 */

/** Variables whose value is taken from the parent, when set: locale and terminal only. */
const FROM_PARENT = ["LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ"] as const;

/** The fixed PATH inside the sandbox (the host's standard folders, bound read-only). */
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";

export interface SandboxEnvInput {
  parent: NodeJS.ProcessEnv;
  home: string;
  /** Where node lives, put first on PATH when it is not in a standard folder. */
  nodeBinDir?: string;
  path?: string;
  extra?: Record<string, string>;
}

export function sandboxEnvironment(input: SandboxEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of FROM_PARENT) {
    const value = input.parent[name];
    if (value !== undefined && value !== "") env[name] = value;
  }
  const basePath = input.path ?? SANDBOX_PATH;
  env.PATH = input.nodeBinDir !== undefined && !basePath.split(":").includes(input.nodeBinDir) ? `${input.nodeBinDir}:${basePath}` : basePath;
  env.HOME = input.home;
  env.TMPDIR = "/tmp";
  env.LANG ??= "C.UTF-8";
  env.TERM ??= "dumb";
  // Nothing may wait on a pager or a password prompt: there is nobody to answer.
  env.PAGER = "cat";
  env.GIT_PAGER = "cat";
  env.GIT_TERMINAL_PROMPT = "0";
  return { ...env, ...(input.extra ?? {}) };
}
