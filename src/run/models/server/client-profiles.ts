/**
 * How each real client's tools map onto the tools a persona plays with, as data. A persona speaks
 * our vocabulary (`shell`, `write_file`, `read_file`); the server renames its calls into the
 * client's own tools on the way out and reads the client's results back into plain text on the
 * way in. A persona call the client has no tool for (a todo update, say) is answered by the
 * server itself and never reaches the client.
 */
import { posix } from "node:path";
import { anthropicMessagesWire } from "./anthropic-messages-wire.ts";
import { chatCompletionsWire } from "./chat-completions-wire.ts";
import { responsesWire } from "./responses-wire.ts";
import type { WireProtocol } from "./wire.ts";

export type ClientName = "codex" | "claude" | "pi";

export interface WireCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What a client's tool result said, in the terms a persona reads. */
export interface ReadResult {
  output: string;
  /** Null when the client's result does not say. */
  exitCode: number | null;
}

export interface ClientProfile {
  name: ClientName;
  wire: WireProtocol;
  /** Our tool name → the client's call; a missing entry means the server answers it itself. */
  calls: Partial<Record<string, (args: Record<string, unknown>, workDir: string) => WireCall>>;
  /** Reads the client's result text for one of our tools. */
  readResult: (text: string) => ReadResult;
}

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A shell command that writes `content` to `path` byte for byte, whatever the content holds. */
function writeCommand(path: string, content: string): string {
  const dir = posix.dirname(path);
  const b64 = Buffer.from(content, "utf8").toString("base64");
  return `${dir === "." ? "" : `mkdir -p ${quote(dir)} && `}printf %s ${quote(b64)} | base64 -d > ${quote(path)}`;
}

const absolute = (workDir: string, path: string): string => (posix.isAbsolute(path) ? path : posix.join(workDir, path));

/** `Process exited with code N` … `Output:` — the layout of Codex's exec_command results. */
function readCodexResult(text: string): ReadResult {
  const exit = /Process exited with code (-?\d+)/.exec(text);
  const marker = text.indexOf("\nOutput:\n");
  return { output: (marker >= 0 ? text.slice(marker + "\nOutput:\n".length) : text).trimEnd(), exitCode: exit ? Number(exit[1]) : null };
}

/** Claude Code reports a failing Bash call as `Exit code N` on the first line of the result. */
function readClaudeResult(text: string): ReadResult {
  const exit = /^(?:Error: )?Exit code (-?\d+)\s*\n?/.exec(text);
  if (exit) return { output: text.slice(exit[0].length).trimEnd(), exitCode: Number(exit[1]) };
  const empty = /^\((?:Bash )?completed with no output\)$/.test(text.trim());
  return { output: empty ? "" : text.trimEnd(), exitCode: null };
}

/** pi appends `Command exited with code N` to a failing bash result. */
function readPiResult(text: string): ReadResult {
  const exit = /\n*Command exited with code (-?\d+)\s*$/.exec(text);
  if (exit) return { output: text.slice(0, exit.index).trimEnd(), exitCode: Number(exit[1]) };
  return { output: text.trim() === "(no output)" ? "" : text.trimEnd(), exitCode: null };
}

export const CLIENT_PROFILES: Record<ClientName, ClientProfile> = {
  codex: {
    name: "codex",
    wire: responsesWire,
    calls: {
      shell: (args) => ({ name: "exec_command", arguments: { cmd: str(args.command), login: false } }),
      write_file: (args) => ({ name: "exec_command", arguments: { cmd: writeCommand(str(args.path), str(args.content)), login: false } }),
      read_file: (args) => ({ name: "exec_command", arguments: { cmd: `cat ${quote(str(args.path))}`, login: false } }),
    },
    readResult: readCodexResult,
  },
  claude: {
    name: "claude",
    wire: anthropicMessagesWire,
    calls: {
      shell: (args) => ({ name: "Bash", arguments: { command: str(args.command), description: "Run a command" } }),
      write_file: (args, workDir) => ({ name: "Write", arguments: { file_path: absolute(workDir, str(args.path)), content: str(args.content) } }),
      read_file: (args, workDir) => ({ name: "Read", arguments: { file_path: absolute(workDir, str(args.path)) } }),
    },
    readResult: readClaudeResult,
  },
  pi: {
    name: "pi",
    wire: chatCompletionsWire,
    calls: {
      shell: (args) => ({ name: "bash", arguments: { command: str(args.command) } }),
      write_file: (args) => ({ name: "write", arguments: { path: str(args.path), content: str(args.content) } }),
      read_file: (args) => ({ name: "read", arguments: { path: str(args.path) } }),
    },
    readResult: readPiResult,
  },
};
