/**
 * `armstudy persona check PERSONA --task TASK [--json]`: validates a scripted persona against the
 * task it is meant to play (src/study/persona-check.ts). PERSONA is a persona file, or `@NAME` /
 * `@task` for the task's own. Exit 0 when it fits (notes may follow), 2 when it does not.
 */
import { resolve } from "node:path";
import { PersonaError } from "../../run/models/scripted-persona.ts";
import { StudyInputError } from "../../study/errors.ts";
import { checkPersona } from "../../study/persona-check.ts";
import { loadTask } from "../../study/task.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";

const USAGE = `armstudy persona check PERSONA --task TASK [--json]

Checks that a scripted persona fits a task (docs/personas.md): it names the task, reads files the
task's repository has (or an earlier step wrote), writes inside the repository, and runs commands
it can run. PERSONA is a persona file, or @NAME (the task's personas/NAME.yaml) or @task (the
task's default persona). TASK is a task folder (docs/tasks.md). Exit 0 when it fits, 2 when not.`;

const command: Command = {
  name: "persona",
  summary: "Check a scripted persona against the task it plays (docs/personas.md)",
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCommandArgs({ args, allowPositionals: true, strict: true, options: { task: { type: "string" }, json: { type: "boolean", default: false } } }, USAGE);
    const [action, persona, ...extra] = parsed.positionals;
    if (action !== "check") throw new UsageError(`${action === undefined ? "name an action" : `unknown action "${action}"`}: the only action is check\nusage: ${USAGE}`);
    if (persona === undefined || extra.length > 0) throw new UsageError(`check takes one persona\nusage: ${USAGE}`);
    if (parsed.values.task === undefined) throw new UsageError(`name the task the persona plays with --task TASK\nusage: ${USAGE}`);
    try {
      const task = await loadTask(resolve(io.cwd, parsed.values.task));
      const report = await checkPersona(persona, task, io.cwd);
      if (parsed.values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      else {
        const head = report.errors.length === 0 ? `ok: persona ${report.persona} fits task ${report.task} (${report.steps.length} step(s): ${report.steps.join(", ")})` : `persona ${report.persona} does not fit task ${report.task}:`;
        io.stdout([head, ...report.errors.map((error) => `  error: ${error}`), ...report.notes.map((note) => `  note: ${note}`), ""].join("\n"));
      }
      return report.errors.length === 0 ? 0 : 2;
    } catch (error) {
      if (error instanceof PersonaError || error instanceof StudyInputError) throw new InputError(error.message, error.file);
      throw error;
    }
  },
};

export default command;
