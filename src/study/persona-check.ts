/**
 * `armstudy persona check`: a persona validated against the task it is meant to play, before a
 * study uses it. It must name the task; each step must read files the repository has (or an earlier
 * step wrote), write inside the repository, and run a command it can run — a task check it uses
 * must be the task's own and visible to the agent, and no two steps may share a command (a step's
 * progress is read back from its command's results). Writing under the check path is allowed but
 * noted: such a persona tampers with its grader, which grading survives.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { isAbsolute, join, normalize, relative, sep } from "node:path";
import { type Persona, loadPersona } from "../run/models/scripted-persona.ts";
import { loadChecks } from "./checks.ts";
import { git } from "./git.ts";
import { personaFileFor } from "./personas.ts";
import type { TaskSpec } from "./task.ts";

export interface PersonaCheckReport {
  persona: string;
  file: string;
  task: string;
  steps: string[];
  errors: string[];
  notes: string[];
}

async function filesIn(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === ".git") continue;
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await filesIn(join(dir, entry.name), path)));
    else out.push(path);
  }
  return out;
}

/** The files a run of the task starts with (the repository at its commit). */
async function repoFiles(task: TaskSpec): Promise<Set<string>> {
  if (task.repo.kind === "fixture") return new Set(await filesIn(task.repo.dir));
  const listing = await git(task.repo.path).raw(["ls-tree", "-r", "--name-only", task.repo.ref]);
  return new Set(listing.split("\n").filter((line) => line !== ""));
}

const insideRepo = (path: string): boolean => !isAbsolute(path) && !normalize(path).split(/[\\/]/).includes("..");
const under = (path: string, folder: string): boolean => normalize(path).split(sep).join("/") === folder || normalize(path).split(sep).join("/").startsWith(`${folder}/`);

export async function checkPersona(spec: string, task: TaskSpec, cwd: string): Promise<PersonaCheckReport> {
  const file = personaFileFor(spec.startsWith("scripted:") ? spec : `scripted:${spec}`, task, cwd) as string;
  const persona: Persona = await loadPersona(file);
  const errors: string[] = [];
  const notes: string[] = [];
  const shown = relative(cwd, file).startsWith("..") ? file : relative(cwd, file);
  if (persona.task !== task.name) {
    errors.push(persona.task === null ? `the persona names no task: add \`task: ${task.name}\` to ${shown}` : `the persona was written for task "${persona.task}", not "${task.name}"`);
  }
  const present = await repoFiles(task);
  const checks = new Map((await loadChecks(task.checksPath)).map((check) => [check.id, check.command]));
  const written = new Set<string>();
  const commands = new Map<string, string>();
  for (const step of persona.steps) {
    for (const path of step.reads) {
      if (!present.has(path) && !written.has(path) && !(task.checkFiles?.visible === true && under(path, task.checkFiles.to) && existsSync(join(task.checkFiles.from, relative(task.checkFiles.to, path))))) {
        errors.push(`step ${step.id} reads ${path}, which the repository does not have and no earlier step writes`);
      }
    }
    for (const write of step.writes) {
      if (!insideRepo(write.path)) errors.push(`step ${step.id} writes ${write.path}, outside the repository`);
      else if (task.checkFiles !== null && under(write.path, task.checkFiles.to)) {
        notes.push(`step ${step.id} writes ${write.path} under the task's check path: this persona tampers with its grader (grading uses the task's own copy and records it as tampered)`);
      }
      written.add(write.path);
    }
    if (step.usesTaskCheck) {
      const own = checks.get(step.id);
      if (own === undefined) errors.push(`step ${step.id} runs the check of the same id, but the task's checks (${task.checksPath}) have no ${step.id}; give the step its own \`run\``);
      else if (own !== step.check) errors.push(`step ${step.id} runs \`${step.check}\`, but the task's check ${step.id} is \`${own}\`: the steps file names another checks file`);
      else if (task.checkFiles !== null && !task.checkFiles.visible) {
        errors.push(`step ${step.id} runs the task's check \`${own}\`, but the task's check files are hidden from the agent (checkFiles.visible is false); give the step its own \`run\``);
      }
    }
    const earlier = commands.get(step.check);
    if (earlier !== undefined) errors.push(`steps ${earlier} and ${step.id} both run \`${step.check}\`; a step's progress is read from its own command's results, so give each step a command of its own`);
    commands.set(step.check, step.id);
  }
  return { persona: persona.name, file, task: task.name, steps: persona.steps.map((step) => step.id), errors, notes };
}
