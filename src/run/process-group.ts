/** Process groups: a command spawned `detached` leads its own group, so one signal ends all it started. */

/**
 * SIGKILL to the whole group led by `pid`; a spawn that failed (no pid) or a group already gone is
 * a no-op. Never pid 0: `process.kill(-0)` would signal our own group.
 */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined || pid <= 0) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}
