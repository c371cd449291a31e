/**
 * The launcher a run's sandbox runs (ADR 0113): a bash loop that stays as root (with only the
 * capabilities bubblewrap left it) while each shell call runs as the run's unprivileged user.
 *
 * Per call armstudy writes the `bash -c` text to the inbox's `command` file (a root-only folder,
 * bound read-only) and then a fresh random marker on the launcher's stdin. The launcher starts the
 * call (stdin /dev/null, stdout and stderr its own pipes to armstudy), waits for it, then sends
 * SIGKILL to every other process in the PID namespace — the call's own children, `setsid` and
 * `nohup` ones included — until none is left, and only then writes the marker and the exit code on
 * stdout and the marker on stderr. So nothing of a call outlives it, the marker comes after the
 * last byte any of its processes wrote, and the call, another user, can neither signal, trace nor
 * read the launcher, its stdin or its inbox: it never learns the marker it would need to fake an end.
 */

/** Where the inbox folder is bound inside the sandbox. */
export const LAUNCHER_INBOX = "/run/armstudy-shell";

/** The command file in the inbox, rewritten before each call. */
export const LAUNCHER_COMMAND_FILE = "command";

/**
 * `bash -c LAUNCHER_SCRIPT armstudy-launcher INBOX [DROP...]`: DROP is the setpriv prefix that
 * turns a call into the run's user. `kill -KILL -1` from root reaches every process of the
 * namespace but its init and the launcher, and fails (ESRCH) only when none is left, zombies
 * included (bubblewrap's init reaps them). SHLVL is unset so a call's bash sees what it would as
 * a sandbox of its own. The stderr pipe is kept on fd 3 for the calls and the marker, and the
 * launcher's own stderr goes to /dev/null: bash's "Killed" notice for a call is not the call's output.
 */
export const LAUNCHER_SCRIPT = `inbox=$1
shift
exec 3>&2 2>/dev/null
while IFS= read -r marker; do
  IFS= read -r -d '' call < "$inbox/${LAUNCHER_COMMAND_FILE}"
  ( unset SHLVL; exec "$@" bash -c "$call" ) </dev/null 2>&3 3>&- &
  wait "$!"
  code=$?
  while kill -KILL -1 2>/dev/null; do :; done
  printf '%s %d\\n' "$marker" "$code"
  printf '%s\\n' "$marker" >&3
done`;
