/**
 * Which tool names mean the same thing across agents, as data. Metrics ask "is this call a read,
 * and of which file?" without knowing which agent wrote the record.
 */

export type ToolFamily = "read" | "shell" | "edit" | "write" | "search" | "plan" | "ask" | "goal" | "subagent";

/** Tool names per family, as each agent spells them (armstudy, Codex, Claude Code, pi, opencode). */
export const TOOL_FAMILIES: Readonly<Record<ToolFamily, readonly string[]>> = {
  read: ["read_file", "Read", "read", "view", "view_file", "open_file", "NotebookRead"],
  shell: ["shell", "exec_command", "Bash", "bash", "local_shell", "command_execution", "run_command", "container.exec"],
  edit: ["edit_file", "Edit", "MultiEdit", "edit", "apply_patch", "file_change", "str_replace", "NotebookEdit"],
  write: ["write_file", "Write", "write", "create_file"],
  search: ["search", "Grep", "Glob", "grep", "glob", "find", "list_files", "LS", "ls", "rg"],
  plan: ["update_plan", "TodoWrite", "todowrite", "TaskCreate", "TaskUpdate"],
  ask: ["ask_user", "AskUserQuestion", "request_user_input", "question"],
  goal: ["update_goal", "create_goal", "get_goal"],
  subagent: ["Task", "Agent", "spawn_agent", "task"],
};

const BY_NAME = new Map<string, ToolFamily>();
for (const [family, names] of Object.entries(TOOL_FAMILIES) as Array<[ToolFamily, readonly string[]]>) {
  for (const name of names) if (!BY_NAME.has(name)) BY_NAME.set(name, family);
}

export function familyOf(name: string): ToolFamily | null {
  return BY_NAME.get(name) ?? null;
}

/** Argument keys that hold the file a read/edit/write tool works on. */
export const PATH_KEYS = ["path", "file_path", "filePath", "file", "notebook_path", "target_file", "filename"] as const;

/** Argument keys that hold a shell command (a string, or an argv array). */
export const COMMAND_KEYS = ["command", "cmd"] as const;

/**
 * Shell commands that read a file, and the options that take a value (so the value is not
 * mistaken for a file). `script: true`: the first operand is a script, not a file (`sed -n '1,80p' f`).
 */
export const READ_COMMANDS: Readonly<Record<string, { valueOptions: readonly string[]; script?: boolean; requires?: string }>> = {
  cat: { valueOptions: [] },
  head: { valueOptions: ["-n", "-c"] },
  tail: { valueOptions: ["-n", "-c"] },
  nl: { valueOptions: ["-b", "-s", "-w", "-v", "-i"] },
  less: { valueOptions: [] },
  more: { valueOptions: [] },
  bat: { valueOptions: ["-r", "--line-range", "-l", "--language"] },
  // `sed` reads a file only when printing (-n); `sed -i` edits.
  sed: { valueOptions: ["-e", "-f"], script: true, requires: "-n" },
};

/** Shells whose `-c SCRIPT` wraps the real command. */
const SHELLS = new Set(["bash", "sh", "zsh", "dash"]);

/** Splits a command line into words, honouring single and double quotes and backslashes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < line.length) current += line[++i];
      else current += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** Splits a script into simple commands at `&&`, `||`, `;`, `|` and newlines outside quotes. */
export function simpleCommands(script: string): Array<{ text: string; piped: boolean }> {
  const out: Array<{ text: string; piped: boolean }> = [];
  let quote: string | null = null;
  let start = 0;
  let piped = false;
  const push = (end: number, nextPiped: boolean): void => {
    const text = script.slice(start, end).trim();
    if (text.length > 0) out.push({ text, piped });
    piped = nextPiped;
  };
  for (let i = 0; i < script.length; i += 1) {
    const c = script[i];
    if (quote !== null) {
      if (c === "\\" && quote === '"') i += 1;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i += 1;
    else if ((c === "&" || c === "|") && script[i + 1] === c) {
      push(i, false);
      i += 1;
      start = i + 1;
    } else if (c === ";" || c === "\n") {
      push(i, false);
      start = i + 1;
    } else if (c === "|") {
      push(i, true);
      start = i + 1;
    }
  }
  push(script.length, false);
  return out;
}

/** The script inside `bash -lc '…'`, or the command itself. */
function unwrapShell(words: string[]): string | null {
  const first = words[0];
  if (first === undefined) return null;
  const base = first.slice(first.lastIndexOf("/") + 1);
  if (SHELLS.has(base)) {
    const flag = words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w));
    if (flag !== -1 && words[flag + 1] !== undefined) return words[flag + 1] as string;
  }
  return null;
}

/** Files a shell command reads with cat/head/tail/sed -n/…; empty when it reads none. */
export function filesReadByCommand(command: string | readonly string[]): string[] {
  let script: string;
  if (Array.isArray(command)) {
    const inner = unwrapShell([...command]);
    script = inner ?? command.join(" ");
  } else {
    script = command as string;
    const inner = unwrapShell(shellWords(script));
    if (inner !== null) script = inner;
  }
  const files: string[] = [];
  for (const { text, piped } of simpleCommands(script)) {
    if (piped) continue; // `… | head`: reads the pipe, not a file
    const words = shellWords(text);
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string)) i += 1;
    const name = words[i];
    if (name === undefined) continue;
    // Own keys only: a command named `toString` or `constructor` is not in the table.
    const base = name.slice(name.lastIndexOf("/") + 1);
    if (!Object.hasOwn(READ_COMMANDS, base)) continue;
    const spec = READ_COMMANDS[base]!;
    const args = words.slice(i + 1);
    if (spec.requires !== undefined && !args.some((a) => a === spec.requires || (a.startsWith("-") && !a.startsWith("--") && a.includes(spec.requires!.slice(1))))) continue;
    let scriptSeen = !spec.script || args.some((a) => a === "-e" || a === "-f");
    for (let j = 0; j < args.length; j += 1) {
      const a = args[j] as string;
      if (spec.valueOptions.includes(a)) {
        j += 1;
        continue;
      }
      if (a.startsWith("-") && a.length > 1) continue;
      if (a.startsWith(">") || a.startsWith("<") || a === "2>&1" || /^\d?>/.test(a)) break;
      if (!scriptSeen) {
        scriptSeen = true;
        continue;
      }
      files.push(a);
    }
  }
  return files;
}
