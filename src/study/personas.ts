/**
 * Which persona file a `scripted:` model spec means on a task, and the refusal of a persona written
 * for another task (it would write that task's files into this repo). `scripted:@task` is the
 * task's own default persona (task.yaml `persona`), `scripted:@NAME` the task's
 * `personas/NAME.yaml`, and `scripted:FILE` a file, which must name this task in its `task` field.
 * Other specs pass through unchanged.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { PersonaError, loadPersona } from "../run/models/scripted-persona.ts";

export interface PersonaTask {
  name: string;
  personasDir: string | null;
  persona: string | null;
}

const PREFIX = "scripted:";

function available(task: PersonaTask): string {
  if (task.personasDir === null || !existsSync(task.personasDir)) return "it has no personas/ folder";
  const names = readdirSync(task.personasDir)
    .filter((name) => name.endsWith(".yaml") && name !== "steps.yaml" && !name.endsWith(".steps.yaml"))
    .map((name) => `@${name.slice(0, -5)}`)
    .sort();
  return names.length === 0 ? "its personas/ folder holds none" : `it has ${names.join(", ")}`;
}

/** The persona file a scripted spec names on this task; null for a spec of another kind. */
export function personaFileFor(spec: string, task: PersonaTask, cwd: string): string | null {
  if (!spec.startsWith(PREFIX)) return null;
  const rest = spec.slice(PREFIX.length);
  if (!rest.startsWith("@")) return resolve(cwd, rest);
  const wanted = rest === "@task" ? task.persona : rest.slice(1);
  if (wanted === null) {
    throw new PersonaError("PERSONA_NOT_FOUND", `model ${spec}: task "${task.name}" names no default persona (task.yaml \`persona\`); ${available(task)}.`, spec);
  }
  const file = task.personasDir === null ? null : join(task.personasDir, `${wanted}.yaml`);
  if (file === null || !existsSync(file)) {
    throw new PersonaError("PERSONA_NOT_FOUND", `model ${spec}: task "${task.name}" has no persona "${wanted}"; ${available(task)}.`, file ?? spec);
  }
  return file;
}

/**
 * The spec a run on this task uses: `scripted:` with the persona's absolute path, after checking
 * that the persona was written for this task. Throws PersonaError (exit 2) naming both tasks.
 */
export async function modelSpecForTask(spec: string, task: PersonaTask, cwd: string): Promise<string> {
  const file = personaFileFor(spec, task, cwd);
  if (file === null) return spec;
  const persona = await loadPersona(file);
  if (persona.task !== task.name) {
    const written = persona.task === null ? "names no task (its `task` field)" : `was written for task "${persona.task}"`;
    throw new PersonaError(
      "PERSONA_WRONG_TASK",
      `persona ${file} ${written}, so it cannot play task "${task.name}": its steps read, write and run that task's files. Use one of the task's own personas (${available(task)}), or write one (docs/personas.md) and validate it with \`armstudy persona check FILE --task TASK\`.`,
      file,
    );
  }
  return `${PREFIX}${file}`;
}

/**
 * For a run in a plain directory (`armstudy run --dir`, no task): a persona whose files are not
 * there was written for another repository, and would write that repository's files into this one.
 * Refused when none of the files its steps read first (before any step writes them) exist in `dir`.
 */
export async function refuseForeignPersona(spec: string, dir: string, cwd: string): Promise<void> {
  if (!spec.startsWith(PREFIX) || spec.slice(PREFIX.length).startsWith("@")) return;
  const persona = await loadPersona(resolve(cwd, spec.slice(PREFIX.length)));
  const written = new Set<string>();
  const expected: string[] = [];
  for (const step of persona.steps) {
    for (const path of step.reads) if (!written.has(path) && !expected.includes(path)) expected.push(path);
    for (const write of step.writes) written.add(write.path);
  }
  if (expected.length === 0 || expected.some((path) => existsSync(join(dir, path)))) return;
  const shown = expected.slice(0, 4).join(", ") + (expected.length > 4 ? ", …" : "");
  throw new PersonaError(
    "PERSONA_WRONG_TASK",
    `persona ${persona.file}${persona.task === null ? "" : ` was written for task "${persona.task}": it`} reads ${shown}, none of which is in ${dir}, so it would write another repository's files there. Use a persona written for this repository (docs/personas.md), and check it with \`armstudy persona check FILE --task TASK\`.`,
    persona.file,
  );
}
