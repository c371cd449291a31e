/**
 * Persona files for the scripted test double (format in docs/personas.md). A persona
 * (`fixtures/tasks/<task>/personas/<name>.yaml`) names the task it was written for, a steps file,
 * its traits and optionally the words of its final replies; the steps file says, per step, which
 * files the persona reads, which it writes (their content lives under `solutions/<id>/`) and which
 * command it runs to see the step done (its own `run`, or the task's check with the same id). All
 * of it is validated here, once, with errors that name the file and the field.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

export type PersonaErrorCode = "PERSONA_NOT_FOUND" | "PERSONA_INVALID" | "PERSONA_WRONG_TASK";

export class PersonaError extends Error {
  constructor(
    readonly code: PersonaErrorCode,
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = "PersonaError";
  }
}

export const EndStyle = z.enum(["claim_done", "ask_permission", "honest_unfinished"]);
export type EndStyle = z.infer<typeof EndStyle>;

export const PersonaTraits = z
  .object({
    /** End the reply after this many steps pass since the last user message; null: never early. */
    stopAfterSteps: z.number().int().positive().nullable().default(null),
    /** How an early stop reads: a false "done", a question to the person, or an honest status. */
    endStyle: EndStyle.default("claim_done"),
    /** Picks the work up again when a continuation or nudge arrives after it stopped. */
    resumesOnContinuation: z.boolean().default(true),
    /** Marks every todo item completed once the first step passes. */
    closesTodosEarly: z.boolean().default(false),
    /** Sends each read this many times in a row, identical (1 = no repeats). */
    repeatsCalls: z.number().int().min(1).max(20).default(1),
    /** As a claim reviewer: strict reads the latest check results; lenient always says done. */
    claimCheck: z.enum(["strict", "lenient"]).default("strict"),
    /** Calls update_goal(complete) when it believes it is done, if the tool is offered. */
    usesGoalTools: z.boolean().default(true),
    /** Keeps a todo list with update_plan, if the tool is offered. */
    usesPlan: z.boolean().default(true),
    /** In a plan run: forgets to close the plan block it writes (an `invalid` reply, ADR-0077). */
    leavesPlanOpen: z.boolean().default(false),
  })
  .strict();
export type PersonaTraits = z.infer<typeof PersonaTraits>;

const PersonaFile = z
  .object({
    persona: z.string().regex(/^[a-z][a-z0-9-]*$/, "a lower-case name such as early-stopper"),
    description: z.string().min(1),
    /** The steps file, relative to the persona file. */
    steps: z.string().min(1),
    /** The task this persona was written for (its task.yaml name); a study refuses it on any other. */
    task: z.string().min(1).optional(),
    traits: PersonaTraits.default(PersonaTraits.parse({})),
    /**
     * The words of its final replies, replacing the built-in ones: `finished` (every step passed),
     * `stopped` (an early stop, in its end style), `gaveUp` (a step kept failing). `{done}` and
     * `{left}` are replaced by the step ids done and left.
     */
    replies: z
      .object({ finished: z.string().min(1).optional(), stopped: z.string().min(1).optional(), gaveUp: z.string().min(1).optional() })
      .strict()
      .default({}),
  })
  .strict();

const StepsFile = z
  .object({
    /** The handoff the steps play (informational; the task names it). */
    handoff: z.string().min(1).optional(),
    /** The checks file a step's `run` defaults from (the check with the step's id). */
    checks: z.string().min(1).optional(),
    solutions: z.string().min(1).default("solutions"),
    steps: z
      .array(
        z
          .object({
            id: z.string().min(1),
            title: z.string().min(1),
            reads: z.array(z.string().min(1)).default([]),
            writes: z.array(z.string().min(1)).default([]),
            /** The command it runs to see the step done (exit 0); default: the checks file's command for this id. */
            run: z.string().min(1).optional(),
            /**
             * In a plan run: text that, found in what it read of this step's `reads`, tells it the
             * step's work is already in the repository, so its plan leaves the step out (ADR 0125).
             */
            exists: z.string().min(1).optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

const CheckList = z.array(z.object({ id: z.string().min(1), command: z.string().min(1) }).passthrough()).min(1);
/** A checks file in either form a study accepts: a list, or `{ checks: [...] }`. */
const ChecksFile = z.union([z.object({ checks: CheckList }), CheckList.transform((checks) => ({ checks }))]);

export interface PersonaStep {
  id: string;
  title: string;
  /** The command the persona runs to see the step done: its own `run`, or the task's check with this id. */
  check: string;
  /** True when `check` is the task's acceptance check of the same id (not a command of its own). */
  usesTaskCheck: boolean;
  reads: string[];
  writes: Array<{ path: string; content: string }>;
  /** In a plan run: the text that shows the step's work is already there (null: never). */
  exists: string | null;
}

export interface Persona {
  name: string;
  description: string;
  file: string;
  /** The task it was written for; null when the file names none. */
  task: string | null;
  traits: PersonaTraits;
  replies: { finished?: string; stopped?: string; gaveUp?: string };
  steps: PersonaStep[];
  /** The steps file (for messages). */
  stepsFile: string;
}

function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((issue) => `field \`${issue.path.length > 0 ? issue.path.join(".") : "(root)"}\`: ${issue.message}`).join("; ");
}

async function readYaml<T>(file: string, schema: z.ZodType<T>, what: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new PersonaError("PERSONA_NOT_FOUND", `${what} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}); check the path`, file);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new PersonaError("PERSONA_INVALID", `${what} ${file} is not valid YAML: ${(error as Error).message}`, file);
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new PersonaError("PERSONA_INVALID", `${what} ${file}: ${describeIssues(result.error.issues)}`, file);
  return result.data;
}

/** Loads a persona with its steps, check commands and solution files. */
export async function loadPersona(file: string): Promise<Persona> {
  const personaFile = path.resolve(file);
  const persona = await readYaml(personaFile, PersonaFile, "persona file");
  const stepsPath = path.resolve(path.dirname(personaFile), persona.steps);
  const steps = await readYaml(stepsPath, StepsFile, "steps file");
  const base = path.dirname(stepsPath);
  const checksPath = steps.checks === undefined ? null : path.resolve(base, steps.checks);
  const checks = checksPath === null ? { checks: [] } : await readYaml(checksPath, ChecksFile, "checks file");
  const commands = new Map(checks.checks.map((check) => [check.id, check.command]));
  const solutions = path.resolve(base, steps.solutions);
  const loaded: PersonaStep[] = [];
  for (const [index, step] of steps.steps.entries()) {
    const check = step.run ?? commands.get(step.id);
    if (check === undefined) {
      throw new PersonaError(
        "PERSONA_INVALID",
        checksPath === null
          ? `steps file ${stepsPath}: field \`steps.${index}.run\`: step "${step.id}" says no command to run; give it \`run\` or name the task's checks file in \`checks\``
          : `steps file ${stepsPath}: field \`steps.${index}.id\`: "${step.id}" has no check in ${checksPath} and no \`run\`; add one or fix the id`,
        stepsPath,
      );
    }
    const writes = [];
    for (const relative of step.writes) {
      const source = path.join(solutions, step.id, relative);
      try {
        writes.push({ path: relative, content: await readFile(source, "utf8") });
      } catch {
        throw new PersonaError(
          "PERSONA_INVALID",
          `steps file ${stepsPath}: field \`steps.${index}.writes\`: the solution file ${source} is missing; add it or remove "${relative}"`,
          stepsPath,
        );
      }
    }
    loaded.push({ id: step.id, title: step.title, check, usesTaskCheck: step.run === undefined, reads: step.reads, writes, exists: step.exists ?? null });
  }
  return {
    name: persona.persona,
    description: persona.description,
    file: personaFile,
    task: persona.task ?? null,
    traits: persona.traits,
    replies: persona.replies,
    steps: loaded,
    stepsFile: stepsPath,
  };
}
