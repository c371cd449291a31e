/**
 * The commands README.md and docs/guide.md show, held to the CLI without running them. Every
 * `armstudy …`, `npx armstudy …`, `npm run …` and `npm test` line in a ```sh block must name a
 * registered command (src/cli/commands.ts) or an npm script (package.json), use only flags and
 * subcommands its usage text lists, put `--` before a script's own options, and name only
 * repository inputs that exist (fixtures, personas, benchmark topics, real-client names).
 *
 * Paths under arms/ are not checked: the guide has the reader write new arms and study files there.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands.ts";
import { AGENT_CLIENTS } from "../../src/run/drivers/clients.ts";
import { ROOT, fencedBlocks, repoPathExists } from "./markdown.ts";

const DOCS = ["README.md", "docs/guide.md"] as const;
const SCRIPTS: Record<string, string> = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;

// ---------------------------------------------------------------------------------------------
// Reading shell lines: just enough of sh to find simple commands and their words.

type Token = { kind: "word"; text: string; subs: string[] } | { kind: "op"; text: string };

const OPERATOR = /^(?:&&|\|\||[0-9]?>&[0-9]|[0-9]?>>?|<|[|;&()])/;

/** Splits one logical line into words and operators; `$(…)` bodies are kept aside as sub-commands. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i] as string;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    if (ch === "#") break; // a comment starts only where a word could start
    const op = OPERATOR.exec(line.slice(i))?.[0];
    if (op !== undefined) {
      tokens.push({ kind: "op", text: op });
      i += op.length;
      continue;
    }
    let text = "";
    const subs: string[] = [];
    while (i < line.length && !/\s/.test(line[i] as string) && !/[|;&<>()]/.test(line[i] as string)) {
      const c = line[i] as string;
      if (c === "'") {
        const end = line.indexOf("'", i + 1);
        text += line.slice(i + 1, end === -1 ? line.length : end);
        i = end === -1 ? line.length : end + 1;
      } else if (c === '"') {
        i += 1;
        while (i < line.length && line[i] !== '"') {
          if (line[i] === "\\" && i + 1 < line.length) i += 1;
          text += line[i];
          i += 1;
        }
        i += 1;
      } else if (c === "\\" && i + 1 < line.length) {
        text += line[i + 1];
        i += 2;
      } else if (c === "$" && line[i + 1] === "(") {
        let depth = 1;
        let j = i + 2;
        while (j < line.length && depth > 0) {
          if (line[j] === "(") depth += 1;
          else if (line[j] === ")") depth -= 1;
          j += 1;
        }
        subs.push(line.slice(i + 2, j - 1));
        text += "$(…)";
        i = j;
      } else {
        text += c;
        i += 1;
      }
    }
    tokens.push({ kind: "word", text, subs });
  }
  return tokens;
}

/** The simple commands of a line (split at `&&`, `||`, `|`, `;`, `&`), `$(…)` bodies included. */
function simpleCommands(line: string): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  let skipNext = false;
  const flush = () => {
    if (current.length > 0) commands.push(current);
    current = [];
  };
  for (const token of tokenize(line)) {
    if (token.kind === "op") {
      if (/[<>]/.test(token.text) && !token.text.includes("&")) skipNext = true; // a redirection's target is not an argument
      else flush();
      continue;
    }
    for (const sub of token.subs) commands.push(...simpleCommands(sub));
    if (skipNext) {
      skipNext = false;
      continue;
    }
    current.push(token.text);
  }
  flush();
  return commands;
}

// ---------------------------------------------------------------------------------------------
// Finding the commands the docs show.

interface DocCommand {
  /** `README.md:57`, for the test name and messages. */
  where: string;
  words: string[];
}

/** Logical lines (backslash continuations joined) of every ```sh block, with their line numbers. */
function shLines(markdown: string, file: string): Array<{ where: string; text: string }> {
  const lines: Array<{ where: string; text: string }> = [];
  for (const block of fencedBlocks(markdown)) {
    if (block.lang !== "sh") continue;
    let pending = "";
    let startLine = 0;
    block.body.split("\n").forEach((raw, index) => {
      if (pending === "") startLine = block.line + 1 + index;
      if (raw.endsWith("\\")) {
        pending += `${raw.slice(0, -1)} `;
        return;
      }
      const text = pending + raw;
      pending = "";
      if (text.trim() !== "") lines.push({ where: `${file}:${startLine}`, text });
    });
  }
  return lines;
}

/** The armstudy / npm commands among a doc's shell lines; leading `VAR=value` words are dropped. */
function docCommands(markdown: string, file: string): DocCommand[] {
  const found: DocCommand[] = [];
  for (const { where, text } of shLines(markdown, file)) {
    for (const command of simpleCommands(text)) {
      const words = [...command];
      while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] as string)) words.shift();
      const [first, second] = words;
      if (first === "armstudy" || (first === "npx" && second === "armstudy") || (first === "npm" && (second === "run" || second === "test"))) {
        found.push({ where, words });
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Checking one command against the CLI and the repository.

const usageCache = new Map<string, string>();

async function usageOf(name: string): Promise<string> {
  const cached = usageCache.get(name);
  if (cached !== undefined) return cached;
  const load = COMMANDS[name];
  if (load === undefined) throw new Error(`no command ${name}`);
  const command = await load();
  const text = `${command.summary}\n${command.usage}`;
  usageCache.set(name, text);
  return text;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Literal subcommand words a usage text shows right after `armstudy NAME`. */
function subcommandsOf(name: string, usage: string): string[] {
  return [...new Set([...usage.matchAll(new RegExp(`armstudy ${escape(name)} ([a-z][a-z-]*)\\b`, "g"))].map((match) => match[1] as string))];
}

/** Repository inputs named in arguments: paths under fixtures/, src/, test/, scripts/, docs/, and `scripted:` persona files. */
function namedInputs(args: readonly string[]): string[] {
  const inputs: string[] = [];
  for (const arg of args) {
    if (/^(fixtures|src|test|scripts|docs)\//.test(arg) && !arg.includes("$")) inputs.push(arg);
    for (const match of arg.matchAll(/scripted:([^\s=]+)/g)) inputs.push(match[1] as string);
  }
  return inputs;
}

async function armstudyProblems(args: readonly string[]): Promise<string[]> {
  const [name, ...rest] = args;
  if (name === undefined) return ["`armstudy` with no command exits 2; name a command"];
  if (name === "--help" || name === "-h" || name === "help") return [];
  if (COMMANDS[name] === undefined) return [`"${name}" is not a registered armstudy command (src/cli/commands.ts): ${Object.keys(COMMANDS).sort().join(", ")}`];
  const usage = await usageOf(name);
  const problems: string[] = [];
  const subcommands = subcommandsOf(name, usage);
  const first = rest[0];
  if (subcommands.length > 0 && first !== undefined && /^[a-z][a-z-]*$/.test(first) && !subcommands.includes(first)) {
    problems.push(`armstudy ${name} has no subcommand "${first}" (its usage shows ${subcommands.join(", ")})`);
  }
  for (const arg of rest) {
    if (!/^--?[A-Za-z]/.test(arg)) continue;
    const flag = arg.split("=")[0] as string;
    if (flag === "--help" || flag === "-h") continue;
    if (!new RegExp(`(^|[\\s\\[|(])${escape(flag)}(?=[\\s\\]|=)]|$)`, "m").test(usage)) problems.push(`armstudy ${name}: the usage text does not list ${flag}`);
  }
  return problems;
}

/** What is wrong with one documented command; empty when nothing is. */
async function problemsOf(words: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  let args: string[];
  if (words[0] === "npx") {
    args = words.slice(2);
    problems.push(...(await armstudyProblems(args)));
  } else if (words[0] === "armstudy") {
    args = words.slice(1);
    problems.push(...(await armstudyProblems(args)));
  } else if (words[1] === "test") {
    args = [];
    if (SCRIPTS.test === undefined) problems.push("package.json has no test script");
  } else {
    const rest = words.slice(2);
    while (rest[0] === "-s" || rest[0] === "--silent") rest.shift();
    const script = rest.shift();
    if (script === undefined) return ["`npm run` with no script only lists the scripts; name one"];
    const body = SCRIPTS[script];
    if (body === undefined) return [`"${script}" is not an npm script in package.json: ${Object.keys(SCRIPTS).sort().join(", ")}`];
    if (rest.length > 0 && rest[0] !== "--") problems.push(`npm run ${script}: put -- before ${rest[0]}, or npm takes it as its own option`);
    args = rest[0] === "--" ? rest.slice(1) : rest;
    // The scripts start the CLI as `exec node bin/armstudy.js [COMMAND]` (ADR 0084).
    const cli = /^(?:exec node bin\/armstudy\.js|tsx src\/cli\/main\.ts)(?:\s+(\S+))?$/.exec(body);
    if (cli !== null) problems.push(...(await armstudyProblems(cli[1] === undefined ? args : [cli[1], ...args])));
    if (script === "bench") {
      const topics = args.filter((arg) => !arg.startsWith("-"));
      for (const topic of topics) if (!repoPathExists(`scripts/bench/${topic}*.bench.ts`)) problems.push(`npm run bench: no benchmark scripts/bench/${topic}*.bench.ts`);
    }
    if (script === "agents:install") {
      const names = AGENT_CLIENTS.map((client) => client.name as string);
      for (const arg of args) if (!names.includes(arg)) problems.push(`npm run agents:install: "${arg}" is not a client (${names.join(", ")})`);
    }
  }
  for (const input of namedInputs(args)) if (!repoPathExists(input)) problems.push(`${input} does not exist`);
  return problems;
}

// ---------------------------------------------------------------------------------------------

const documented = DOCS.flatMap((file) => docCommands(readFileSync(join(ROOT, file), "utf8"), file));

describe("commands shown in README.md and docs/guide.md", () => {
  it("finds the commands of both files", () => {
    const perFile = Object.fromEntries(DOCS.map((file) => [file, documented.filter((command) => command.where.startsWith(`${file}:`)).length]));
    expect(perFile["README.md"]).toBeGreaterThanOrEqual(20);
    expect(perFile["docs/guide.md"]).toBeGreaterThanOrEqual(50);
  });

  it.each(documented.map((command) => [command.where, command.words.join(" "), command] as const))("%s: %s", async (_where, _text, command) => {
    expect(await problemsOf(command.words)).toEqual([]);
  });
});

describe("the reader and the checker", () => {
  it("splits a line into simple commands: $(…) bodies, pipes, redirections and comments", () => {
    expect(
      simpleCommands(`id=$(npm run -s armstudy -- envelope ledger append /tmp/l.jsonl --dispatch) && printf 'a | b # c' | npm run -s armstudy -- plan classify - > out.json 2>&1 # note`),
    ).toEqual([
      ["npm", "run", "-s", "armstudy", "--", "envelope", "ledger", "append", "/tmp/l.jsonl", "--dispatch"],
      ["id=$(…)"],
      ["printf", "a | b # c"],
      ["npm", "run", "-s", "armstudy", "--", "plan", "classify", "-"],
    ]);
  });

  it("keeps a # inside a word and joins quoted parts", () => {
    expect(simpleCommands(`npm run study -- --model openai-compatible:m@http://h:1/v1#KEY --task-id "$id"x`)).toEqual([
      ["npm", "run", "study", "--", "--model", "openai-compatible:m@http://h:1/v1#KEY", "--task-id", "$idx"],
    ]);
  });

  it("collects commands from sh blocks only, with continuation lines joined and their line numbers", () => {
    const markdown = ["# t", "", "```sh", "npm run budget -- --json   # x", "armstudy analyze \\", "  fixtures/sessions/SOURCES.md", "ls -l", "```", "", "```text", "armstudy nope", "```"].join("\n");
    expect(docCommands(markdown, "x.md")).toEqual([
      { where: "x.md:4", words: ["npm", "run", "budget", "--", "--json"] },
      { where: "x.md:5", words: ["armstudy", "analyze", "fixtures/sessions/SOURCES.md"] },
    ]);
  });

  it("accepts commands that match the CLI", async () => {
    expect(
      await Promise.all(
        [
          ["npm", "run", "-s", "armstudy", "--", "envelope", "ledger", "append", "/tmp/l", "--dispatch", "--model", "m"],
          ["npm", "run", "study", "--", "-j", "2", "--model", "scripted:fixtures/tasks/stockbook/personas/diligent.yaml"],
          ["npx", "armstudy", "report", "reports/x/y"],
          ["npm", "run", "bench", "--", "tokens"],
          ["npm", "test"],
        ].map((words) => problemsOf(words)),
      ),
    ).toEqual([[], [], [], [], []]);
  });

  it("names what is wrong with commands that drifted from the CLI", async () => {
    expect(
      await Promise.all(
        [
          ["armstudy", "studdy"],
          ["npm", "run", "budgets"],
          ["npm", "run", "budget", "--json"],
          ["npm", "run", "study", "--", "--jobs", "2"],
          ["npm", "run", "-s", "armstudy", "--", "plan", "classfy", "x.md"],
          ["npm", "run", "-s", "armstudy", "--", "analyze", "fixtures/sessions/nope.jsonl"],
          ["npm", "run", "study", "--", "--model", "scripted:fixtures/tasks/stockbook/personas/nobody.yaml"],
          ["npm", "run", "bench", "--", "nosuch"],
          ["npm", "run", "agents:install", "--", "cursor"],
        ].map((words) => problemsOf(words)),
      ),
    ).toEqual([
      [`"studdy" is not a registered armstudy command (src/cli/commands.ts): ${Object.keys(COMMANDS).sort().join(", ")}`],
      [`"budgets" is not an npm script in package.json: ${Object.keys(SCRIPTS).sort().join(", ")}`],
      ["npm run budget: put -- before --json, or npm takes it as its own option"],
      ["armstudy study: the usage text does not list --jobs"],
      ['armstudy plan has no subcommand "classfy" (its usage shows classify)'],
      ["fixtures/sessions/nope.jsonl does not exist"],
      ["fixtures/tasks/stockbook/personas/nobody.yaml does not exist"],
      ["npm run bench: no benchmark scripts/bench/nosuch*.bench.ts"],
      ['npm run agents:install: "cursor" is not a client (codex, claude, pi)'],
    ]);
  });
});
