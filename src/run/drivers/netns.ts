/**
 * Running a client with nothing but loopback: when we are root and `unshare -n` and `ip` work, the
 * client starts inside a fresh network namespace whose only interface is `lo`, so a client that
 * tries to reach any other host fails at once instead of hanging or leaking. The persona server
 * stays in the study process (outside the namespace); it is reached through a Unix socket, which a
 * path on the shared filesystem carries across namespaces, and a tiny bridge inside the namespace
 * (netns-bridge.mjs) that listens on 127.0.0.1 for the client.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type Server, type Socket, connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the client runs: a private namespace with loopback only, or the host network (and why). */
export type NetworkMode = { kind: "namespace" } | { kind: "host"; reason: string };

/** The port the bridge listens on inside the namespace; the namespace is new, so it is always free. */
export const NAMESPACE_PORT = 18_080;

const BRIDGE = fileURLToPath(new URL("./netns-bridge.mjs", import.meta.url));

export interface ProbeOptions {
  env: Record<string, string | undefined>;
  /** Our user id (default: process.getuid()). */
  uid?: number;
}

/**
 * Tells whether clients can run in a private loopback-only namespace here, by trying once. The
 * answer is for this process; callers keep it rather than probing per run.
 */
export function probeNetwork(options: ProbeOptions): NetworkMode {
  if (options.env.ARMSTUDY_NETNS === "0") return { kind: "host", reason: "ARMSTUDY_NETNS=0 turned the private network namespace off" };
  const uid = options.uid ?? process.getuid?.() ?? -1;
  if (uid !== 0) return { kind: "host", reason: "not running as root, and `unshare -n` needs root" };
  const probe = spawnSync("unshare", ["-n", "sh", "-c", "ip link set lo up"], { encoding: "utf8", timeout: 10_000, env: { PATH: options.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin" } });
  if (probe.error !== undefined) return { kind: "host", reason: `\`unshare -n\` could not start (${probe.error.message})` };
  if (probe.status !== 0) {
    const why = (probe.stderr ?? "").trim().split("\n").at(-1) ?? "";
    return { kind: "host", reason: `\`unshare -n sh -c 'ip link set lo up'\` failed (exit ${probe.status ?? probe.signal}${why ? `: ${why}` : ""})` };
  }
  return { kind: "namespace" };
}

export interface LoopbackBridge {
  /** The base URL the client uses inside the namespace. */
  baseUrl: string;
  /** The Unix socket the study process serves. */
  socketPath: string;
  /** The command that starts `bin args` inside the namespace, behind the bridge. */
  wrap(command: { bin: string; args: string[] }): { bin: string; args: string[] };
  /** The same for a sandbox that already has a private network: the bridge, then the client. */
  inside(command: { bin: string; args: string[] }): { bin: string; args: string[] };
  /** The folder holding the socket and the bridge script's folder: what a sandbox must bind. */
  socketDir: string;
  bridgeDir: string;
  close(): Promise<void>;
}

/**
 * Serves `127.0.0.1:targetPort` (the persona server, in this process's namespace) on a fresh Unix
 * socket, and returns how to start a client in a new namespace that reaches it as `baseUrl`.
 */
export async function openLoopbackBridge(targetPort: number, tempRoot: string = tmpdir()): Promise<LoopbackBridge> {
  // Unix socket paths are limited to about 100 bytes: keep the folder name short.
  const dir = mkdtempSync(join(tempRoot, "armstudy-ns-"));
  const socketPath = join(dir, "model.sock");
  const open = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(targetPort, "127.0.0.1");
    open.add(inbound);
    open.add(outbound);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    const close = (): void => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on("error", close).on("close", close);
    outbound.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    baseUrl: `http://127.0.0.1:${NAMESPACE_PORT}`,
    socketPath,
    wrap: ({ bin, args }) => ({
      bin: "unshare",
      // `sh -c` brings loopback up (a new namespace starts with it down), then becomes the bridge.
      args: ["-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', process.execPath, BRIDGE, socketPath, String(NAMESPACE_PORT), "--", bin, ...args],
    }),
    inside: ({ bin, args }) => ({ bin: process.execPath, args: [BRIDGE, socketPath, String(NAMESPACE_PORT), "--", bin, ...args] }),
    socketDir: dir,
    bridgeDir: dirname(BRIDGE),
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
