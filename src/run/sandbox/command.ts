/**
 * `sandboxCommand`: the one place a command is wrapped in bubblewrap. The command sees a fresh
 * root: the host's system folders read-only (/usr and the /bin, /lib links), a minimal /etc with
 * no secrets in it, its own /proc (a private PID namespace: no armstudy process is visible), /dev,
 * an empty /tmp and $HOME, and the work directory as the only writable folder. Network: a private
 * namespace with nothing but its own loopback unless the spec says `host`. The environment is the
 * allow-list of env.ts. Every process ends with the sandbox (`--die-with-parent` and the PID
 * namespace), and prlimit caps CPU time, memory, processes and file size — or, in a run's cgroup
 * (cgroup.ts), the group caps the first three for the whole run and prlimit only the file size.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sandboxEnvironment, SANDBOX_PATH } from "./env.ts";
import { LAUNCHER_INBOX, LAUNCHER_SCRIPT } from "./launcher.ts";
import { joinGroupArgs } from "./cgroup.ts";
import { giveTo, sandboxOwner } from "./owner.ts";
import type { Sandbox, SandboxedCommand, SandboxLimits, SandboxSpec } from "./types.ts";

/** $HOME inside when the spec gives none: a private tmpfs, empty at every start. */
export const SANDBOX_HOME = "/home/sandbox";

/** Top-level folders that are either a link into /usr (merged-usr systems) or a folder to bind read-only. */
const SYSTEM_ROOTS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/** The /etc entries commands need to run (dynamic linker, users by name, time zone, TLS roots). No shadow, no keys. */
const ETC_ENTRIES = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/localtime",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/protocols",
  "/etc/services",
  "/etc/mime.types",
  "/etc/ssl/certs",
  "/etc/ca-certificates",
  "/etc/ssl/openssl.cnf",
];

/** Only with the host network: how to find other hosts. */
const ETC_NETWORK = ["/etc/resolv.conf"];

const etcCopies = new Map<string, string>();

/** The account name of the sandbox's user, in its /etc/passwd and in git's default identity. */
export const SANDBOX_USER_NAME = "agent";

const userFiles = new Map<number, string>();

/**
 * /etc/passwd and /etc/group with the sandbox's user added (whoami, git and npm look it up), one
 * small folder per user id, made once per process.
 */
function usersFor(uid: number): string {
  const known = userFiles.get(uid);
  if (known !== undefined && existsSync(known)) return known;
  const dir = join(tmpdir(), `armstudy-sandbox-users-${process.pid}`, String(uid));
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const read = (file: string): string => (existsSync(file) ? readFileSync(file, "utf8") : "");
  const withNewline = (text: string): string => (text === "" || text.endsWith("\n") ? text : `${text}\n`);
  writeFileSync(join(dir, "passwd"), `${withNewline(read("/etc/passwd"))}${SANDBOX_USER_NAME}:x:${uid}:${uid}:armstudy sandbox:${SANDBOX_HOME}:/bin/bash\n`);
  writeFileSync(join(dir, "group"), `${withNewline(read("/etc/group"))}${SANDBOX_USER_NAME}:x:${uid}:\n`);
  if (userFiles.size === 0) process.once("exit", () => rmSync(dirname(dir), { recursive: true, force: true }));
  userFiles.set(uid, dir);
  return dir;
}

/**
 * The sandbox's /etc: a copy of the allowed entries (links kept as links), made once per process
 * and bound as one folder — one mount instead of a score of them, which is most of bubblewrap's
 * start-up cost per command.
 */
function minimalEtc(network: boolean): string {
  const key = network ? "net" : "plain";
  const known = etcCopies.get(key);
  if (known !== undefined && existsSync(known)) return known;
  const target = join(tmpdir(), `armstudy-sandbox-etc-${process.pid}-${key}`);
  const building = `${target}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true, mode: 0o755 });
  for (const entry of [...ETC_ENTRIES, ...(network ? ETC_NETWORK : [])]) {
    if (!existsSync(entry)) continue;
    const destination = join(building, entry.slice("/etc/".length));
    mkdirSync(dirname(destination), { recursive: true, mode: 0o755 });
    cpSync(entry, destination, { recursive: true, verbatimSymlinks: true, dereference: false });
  }
  // Commits in the sandbox need an identity; the agent's own `git config user.*` still wins.
  writeFileSync(join(building, "gitconfig"), `[user]\n\tname = ${SANDBOX_USER_NAME}\n\temail = ${SANDBOX_USER_NAME}@armstudy.invalid\n`);
  rmSync(target, { recursive: true, force: true });
  renameSync(building, target);
  etcCopies.set(key, target);
  process.once("exit", () => rmSync(target, { recursive: true, force: true }));
  return target;
}

function systemRootArgs(): string[] {
  const args: string[] = ["--ro-bind", "/usr", "/usr"];
  for (const root of SYSTEM_ROOTS) {
    let info;
    try {
      info = lstatSync(root);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) args.push("--symlink", readlinkSync(root), root);
    else if (info.isDirectory()) args.push("--ro-bind", root, root);
  }
  return args;
}

/** The folder node is installed in, when it is not under /usr (nvm, a tarball in /opt). */
function nodeInstall(): string | null {
  const real = realpathSync(process.execPath);
  if (real.startsWith("/usr/")) return null;
  return dirname(dirname(real));
}

/**
 * The same limits as bash's `ulimit` (hard and soft; -d and -f count KiB here). In a run's
 * cgroup only the file size: CPU time, memory and processes are the group's caps on the whole run.
 */
function ulimitLine(limits: SandboxLimits, perRun: boolean): string {
  const file = `-f ${Math.floor(limits.fileBytes / 1024)}`;
  if (perRun) return `ulimit ${file} || exit 125`;
  return `ulimit -t ${limits.cpuSeconds} -d ${Math.floor(limits.memoryBytes / 1024)} -u ${limits.processes} ${file} || exit 125`;
}

/** What `bash -c` runs for one shell call: the limits, then the command. The same text per call and in a run's sandbox. */
export function shellCallText(limits: SandboxLimits, command: string, perRun = false): string {
  return `${ulimitLine(limits, perRun)}\n${command}`;
}

function limitArgs(limits: SandboxLimits, perRun: boolean): string[] {
  const file = `--fsize=${limits.fileBytes}`;
  if (perRun) return [file];
  return [`--cpu=${limits.cpuSeconds}`, `--data=${limits.memoryBytes}`, `--nproc=${limits.processes}`, file];
}

/** Mount points inside are made with plain 0755 folders along the way, so the sandbox user can walk to them. */
function ancestorDirs(path: string, made: Set<string>): string[] {
  const args: string[] = [];
  const chain: string[] = [];
  for (let at = dirname(path); at !== "/" && !made.has(at); at = dirname(at)) chain.unshift(at);
  for (const dir of chain) {
    made.add(dir);
    args.push("--perms", "0755", "--dir", dir);
  }
  return args;
}

/**
 * How to spawn `spec.argv` in `sandbox`. With no sandbox (`kind: "none"`), the command runs as is
 * — still with the allow-listed environment, never the parent's.
 */
export function sandboxCommand(sandbox: Sandbox, spec: SandboxSpec, parentEnv: NodeJS.ProcessEnv = process.env): SandboxedCommand {
  const [program, ...rest] = spec.argv;
  if (program === undefined) throw new Error("sandboxCommand: argv is empty");
  const install = nodeInstall();
  const nodeBinDir = install === null ? undefined : dirname(realpathSync(process.execPath));
  if (sandbox.kind === "none") {
    const env = sandboxEnvironment({
      parent: parentEnv,
      home: spec.home ?? parentEnv.HOME ?? "/tmp",
      path: parentEnv.PATH ?? SANDBOX_PATH,
      ...(spec.env !== undefined ? { extra: spec.env } : {}),
    });
    env.TMPDIR = parentEnv.TMPDIR ?? "/tmp";
    return { file: program, args: rest, env };
  }
  const home = spec.home ?? SANDBOX_HOME;
  const env = sandboxEnvironment({ parent: parentEnv, home, ...(nodeBinDir !== undefined ? { nodeBinDir } : {}), ...(spec.env !== undefined ? { extra: spec.env } : {}) });
  const uid = sandboxOwner(spec.dir);
  const args: string[] = [];
  // As root: no user namespace (its id map would make the process root's equal again); drop to
  // the work directory's own unprivileged user with setpriv instead. Otherwise: a user namespace.
  if (uid !== null) args.push("--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try");
  else args.push("--unshare-all", "--unshare-user");
  if (spec.network === "none") {
    if (uid !== null) args.push("--unshare-net");
  } else if (uid === null) args.push("--share-net");
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  if (uid !== null) args.push("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP", "--cap-add", "CAP_DAC_READ_SEARCH");
  // A run's launcher ends every process of a call (another user's) with kill(-1) after it.
  const launcher = spec.launcher !== undefined && uid !== null ? spec.launcher : null;
  if (launcher !== null) args.push("--cap-add", "CAP_KILL");
  args.push("--clearenv");
  for (const [name, value] of Object.entries(env)) args.push("--setenv", name, value);
  args.push(...systemRootArgs());
  args.push("--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/tmp");
  const made = new Set<string>(["/tmp", "/usr", "/proc", "/dev"]);
  const bind = (flag: "--ro-bind" | "--bind", path: string): void => {
    if (!existsSync(path)) return;
    // A path through a symbolic link is bound at its real place too: node resolves scripts there.
    const real = realpathSync(path);
    for (const at of real === path ? [path] : [real, path]) {
      if (made.has(at)) continue;
      args.push(...ancestorDirs(at, made), flag, real, at);
      made.add(at);
    }
  };
  args.push("--ro-bind", minimalEtc(spec.network === "host"), "/etc");
  made.add("/etc");
  if (uid !== null) {
    const users = usersFor(uid);
    args.push("--ro-bind", join(users, "passwd"), "/etc/passwd", "--ro-bind", join(users, "group"), "/etc/group");
  }
  if (spec.home === undefined) args.push("--perms", "0755", "--dir", "/home", "--perms", "1777", "--tmpfs", home);
  if (install !== null) bind("--ro-bind", install);
  for (const path of spec.readable ?? []) bind("--ro-bind", path);
  for (const path of [...(spec.writable ?? []), ...(spec.home !== undefined ? [spec.home] : [])]) {
    if (uid !== null && existsSync(path)) giveTo(path, uid);
    bind("--bind", path);
  }
  bind("--bind", spec.dir);
  if (launcher !== null) args.push("--ro-bind", launcher.inbox, LAUNCHER_INBOX);
  args.push("--chdir", spec.dir, "--");
  const drop = uid === null ? [] : ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--"];
  // The launcher stays root (a user the calls are not) and drops each call to the run's user itself.
  const perRun = spec.group !== undefined;
  if (launcher !== null) args.push("bash", "-c", LAUNCHER_SCRIPT, "armstudy-launcher", LAUNCHER_INBOX, ...drop);
  else {
    args.push(...drop);
    if (spec.bashCommand !== undefined) args.push("bash", "-c", shellCallText(sandbox.limits, spec.bashCommand, perRun));
    else args.push("prlimit", ...limitArgs(sandbox.limits, perRun), "--", program, ...rest);
  }
  // bwrap's own environment is what /proc/1/environ shows inside: the bare PATH, nothing else.
  if (spec.group === undefined) return { file: sandbox.bin, args, env: { PATH: SANDBOX_PATH } };
  // bubblewrap joins the run's cgroup before it starts, so every process of the sandbox is in it.
  return { ...joinGroupArgs(spec.group.joinFiles, sandbox.bin, args, spec.gated === true), env: { PATH: SANDBOX_PATH } };
}
