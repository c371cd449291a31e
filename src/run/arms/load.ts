/**
 * Loading arms from disk: `arms/<name>/arm.yaml` + `arms/<name>/sections/*.md`, validated with
 * zod, `extends` resolved, a `prompt: { ref }` pin read from git, budgets from `arms/budgets.yaml`
 * applied, and the pack compiled. Every bad input is a PackError naming the file and the field.
 */
import { join, resolve } from "node:path";
import { nearestName } from "../../core/nearest-name.ts";
import { BUILTIN_SECTIONS, builtinNames } from "../../core/prompt/builtins.ts";
import { REPORTING_SECTION_ID, compile } from "../../core/prompt/compile.ts";
import { PackError, packErrorFromIssues } from "../../core/prompt/errors.ts";
import { parseSectionFile, sectionFileLines } from "../../core/prompt/front-matter.ts";
import type { CompileResult, PromptInputs, PromptPack, PromptSection } from "../../core/prompt/types.ts";
import { parseYaml } from "../../core/prompt/yaml.ts";
import type { TokenCounter } from "../../core/tokens.ts";
import { checkPolicySpecs } from "../../core/policies/index.ts";
import { type Budgets, applyBudgets, readBudgets, validateBudgets } from "./budgets.ts";
import { ARM_NAME, type ArmFile, armFileSchema, knownFields } from "./schema.ts";
import { type ArmSource, displayPath, gitRefSource, workingTreeSource } from "./source.ts";
import type { AgentKind, LoadedArm, PolicySpec } from "./types.ts";
import type { ContextSettings } from "../../core/context/settings.ts";
import { type LineOf, lazyYamlLines, lineOfField } from "../../core/yaml-lines.ts";

export interface LoadArmsOptions {
  /** Paths in messages are shown relative to this folder. Default: process.cwd(). */
  cwd?: string;
  /**
   * The budgets file. Default: `<armsDir>/budgets.yaml` when it exists. A string names a file that
   * must exist; null loads no budgets.
   */
  budgetsFile?: string | null;
  /** Values for `{{name}}` placeholders and render functions. Default: none. */
  inputs?: PromptInputs;
  /** Share one counter across loads so unchanged sections are not counted again. */
  counter?: TokenCounter;
}

/** A loaded arm with everything the loader learnt on the way. */
export interface ResolvedArm extends LoadedArm {
  prompt: CompileResult | null;
  /** The pack before compilation (sections with budgets): recompile it with run-time inputs. */
  pack: PromptPack | null;
  /** arm.yaml, as messages name it. */
  file: string;
  extends: string | null;
  /** Set when the pack was read from git: the ref as written, the commit, and whose pack. */
  promptRef: { ref: string; arm: string } | null;
}

/** The names of the arms in `armsDir`: folders holding an arm.yaml, sorted. */
export async function listArmNames(armsDir: string, cwd = process.cwd()): Promise<string[]> {
  const source = workingTreeSource(resolve(cwd, armsDir), cwd);
  const names: string[] = [];
  for (const name of await source.list("")) {
    if (ARM_NAME.test(name) && (await source.read(`${name}/arm.yaml`)) !== undefined) names.push(name);
  }
  return names;
}

export async function loadArm(armsDir: string, name: string, options: LoadArmsOptions = {}): Promise<ResolvedArm> {
  const [arm] = await loadArms(armsDir, [name], options);
  if (arm === undefined) throw new Error(`loadArms returned nothing for ${name}`);
  return arm;
}

/**
 * Loads the named arms (default: every arm in `armsDir`), in the order given, with the arms they
 * extend or pin. Only those are read, so a broken arm the command does not name stops only the
 * commands that read every arm (ADR 0211). The budgets file is checked against the arms loaded.
 */
export async function loadArms(armsDir: string, names?: readonly string[], options: LoadArmsOptions = {}): Promise<ResolvedArm[]> {
  return (await loadArmSet(armsDir, names, options)).arms;
}

/** loadArms, plus the budgets file it applied (null when none). */
export async function loadArmSet(
  armsDir: string,
  names?: readonly string[],
  options: LoadArmsOptions = {},
): Promise<{ arms: ResolvedArm[]; budgets: Budgets | null; armsDir: string }> {
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, armsDir);
  const source = workingTreeSource(dir, cwd);
  const all = await listArmNames(dir, cwd);
  if (all.length === 0 && names === undefined) {
    throw new PackError("ARM_NOT_FOUND", displayPath(dir, cwd), "", "holds no arms (folders with an arm.yaml). Check the path (--arms DIR) or create <name>/arm.yaml.");
  }
  const wanted = names ?? all;
  for (const name of wanted) {
    if (!all.includes(name)) {
      throw new PackError(
        "ARM_NOT_FOUND",
        displayPath(join(dir, name, "arm.yaml"), cwd),
        "",
        `no arm "${name}" here (arms in ${displayPath(dir, cwd)}: ${all.join(", ") || "none"}).${didYouMean(name, all)} Check the name or create the file.`,
      );
    }
  }

  const budgetsPath = options.budgetsFile === undefined ? join(dir, "budgets.yaml") : options.budgetsFile === null ? null : resolve(cwd, options.budgetsFile);
  const budgets = budgetsPath === null ? null : await readBudgets(budgetsPath, cwd, options.budgetsFile !== undefined);

  const loader = new Loader(dir, source, cwd);
  const resolved = new Map<string, Omit<ResolvedArm, "prompt" | "pack"> & { sections: PromptSection[] | null }>();
  for (const name of new Set(wanted)) resolved.set(name, await loader.arm(name).catch((error: unknown) => Promise.reject(loader.placed(error))));
  if (budgets !== null) {
    validateBudgets(
      budgets,
      new Map([...resolved].map(([name, arm]) => [name, (arm.sections ?? []).map((s) => s.id)])),
      all,
    );
  }

  const arms = wanted.map((name): ResolvedArm => {
    const arm = resolved.get(name);
    if (arm === undefined) throw new Error(`arm ${name} was not resolved`);
    const { sections, ...rest } = arm;
    if (sections === null) return { ...rest, pack: null, prompt: null };
    const pack = applyBudgets(name, sections, budgets);
    return { ...rest, pack, prompt: compile(pack, options.inputs ?? {}, options.counter === undefined ? {} : { counter: options.counter }) };
  });
  return { arms, budgets, armsDir: dir };
}

/** ` Did you mean "goal"?` for a mistyped arm, or nothing. */
function didYouMean(name: string, all: readonly string[]): string {
  const near = nearestName(name, all);
  return near === null ? "" : ` Did you mean "${near}"?`;
}

interface ArmRead {
  name: string;
  file: string;
  data: ArmFile;
}

interface Settings {
  description: string;
  agent: AgentKind;
  policies: PolicySpec[];
  goal: { rounds?: number; hours?: number } | undefined;
  context: ContextSettings | undefined;
  mode: "work" | "plan" | undefined;
  plan: { noPlan: "valid" | "repair" } | undefined;
}

class Loader {
  private readonly gitSources = new Map<string, Promise<ArmSource>>();
  /** The lines of each arm.yaml read, by the name messages give it, to place a field's error. */
  private readonly lines = new Map<string, LineOf>();

  constructor(
    private readonly dir: string,
    private readonly tree: ArmSource,
    private readonly cwd: string,
  ) {}

  async arm(name: string): Promise<Omit<ResolvedArm, "prompt" | "pack"> & { sections: PromptSection[] | null }> {
    const own = await this.read(this.tree, name, null);
    const settings = await this.settings(own, [name]);
    const ref = own.data.prompt;
    if (settings.agent !== "armstudy") {
      await this.rejectPackForClient(own, settings.agent);
      return this.result(own, settings, null, null);
    }
    let sections: PromptSection[];
    if (ref !== undefined) {
      if ((own.data.sections?.length ?? 0) > 0 || (await this.ownSectionFiles(this.tree, name)).length > 0) {
        throw new PackError(
          "FIELD",
          own.file,
          "prompt.ref",
          "an arm pinned to a git ref takes its whole prompt pack from that ref, so it cannot also have sections (sections: or sections/*.md). Remove one or the other.",
        );
      }
      const git = await this.git(ref.ref, own.file);
      sections = await this.sections(git, ref.arm ?? name, [], true, { file: own.file, field: "prompt.arm" });
    } else {
      sections = await this.sections(this.tree, name, [], false, null);
    }
    return this.result(own, settings, sections, ref === undefined ? null : { ref: ref.ref, arm: ref.arm ?? name });
  }

  /** `error` with the line of its field when it names a field of an arm.yaml this loader read (ADR 0212). */
  placed(error: unknown): unknown {
    if (!(error instanceof PackError) || error.line !== undefined) return error;
    const lineOf = this.lines.get(error.file);
    const line = lineOf === undefined ? undefined : lineOfField(lineOf, error.field);
    return line === undefined ? error : new PackError(error.code, error.file, error.field, error.problem, line);
  }

  private result(own: ArmRead, settings: Settings, sections: PromptSection[] | null, promptRef: ResolvedArm["promptRef"]) {
    const base = {
      name: own.name,
      dir: join(this.dir, own.name),
      description: settings.description,
      agent: settings.agent,
      policies: settings.policies,
      file: own.file,
      extends: own.data.extends ?? null,
      promptRef,
      sections,
    };
    return { ...base, ...(settings.goal === undefined ? {} : { goal: settings.goal }), ...(settings.context === undefined ? {} : { context: settings.context }), ...(settings.mode === undefined ? {} : { mode: settings.mode }), ...(settings.plan === undefined ? {} : { plan: settings.plan }) };
  }

  /** Reads and validates `<name>/arm.yaml` from a source. `from` names who asked (for extends). */
  private async read(source: ArmSource, name: string, from: { file: string; field: string } | null): Promise<ArmRead> {
    const file = source.display(`${name}/arm.yaml`);
    const text = await source.read(`${name}/arm.yaml`);
    if (text === undefined) {
      if (from !== null) {
        throw new PackError("EXTENDS_MISSING", from.file, from.field, `names arm "${name}", but ${file} does not exist. Fix the name or create that arm.`);
      }
      throw new PackError("ARM_NOT_FOUND", file, "", `does not exist. Create it or check the arm name.`);
    }
    const raw = parseYaml(text, file) ?? {};
    const lineOf = lazyYamlLines(text);
    this.lines.set(file, lineOf);
    const parsed = armFileSchema.safeParse(raw);
    if (!parsed.success) throw packErrorFromIssues(parsed.error.issues, file, { known: knownFields, lineOf });
    if (parsed.data.name !== undefined && parsed.data.name !== name) {
      throw new PackError("FIELD", file, "name", `is "${parsed.data.name}" but the folder is "${name}"; make them equal or drop the field.`);
    }
    return { name, file, data: parsed.data };
  }

  /** description, agent, policies and goal, following `extends` in the working tree. */
  private async settings(own: ArmRead, chain: string[]): Promise<Settings> {
    let parent: Settings | null = null;
    if (own.data.extends !== undefined) {
      const parentName = own.data.extends;
      if (chain.includes(parentName)) {
        throw new PackError("EXTENDS_CYCLE", own.file, "extends", `"${parentName}" leads back to itself (${[...chain, parentName].join(" → ")}); break the cycle.`);
      }
      const parentRead = await this.read(this.tree, parentName, { file: own.file, field: "extends" });
      parent = await this.settings(parentRead, [...chain, parentName]);
    }
    const policies: PolicySpec[] = own.data.policies?.map((p) => (p.options === undefined ? { name: p.name } : { name: p.name, options: p.options })) ?? parent?.policies ?? [{ name: "none" }];
    const goal = own.data.goal ?? parent?.goal;
    if (own.data.policies !== undefined) checkPolicies(policies, own.file);
    if (own.data.goal !== undefined && !policies.some((p) => p.name === "goal")) {
      throw new PackError("FIELD", own.file, "goal", "sets goal limits, but the arm has no `goal` policy. Add `- name: goal` under policies, or remove goal.");
    }
    const ownContext = own.data.context;
    const context: ContextSettings | undefined =
      ownContext === undefined ? parent?.context : typeof ownContext === "string" ? { mode: ownContext } : dropUndefined(ownContext);
    const agent = own.data.agent ?? parent?.agent ?? "armstudy";
    if (ownContext !== undefined && agent !== "armstudy") {
      throw new PackError("FIELD", own.file, "context", `a ${agent} arm runs the client with its own context handling; remove context.`);
    }
    const mode = own.data.mode ?? parent?.mode;
    const plan = own.data.plan !== undefined ? { noPlan: own.data.plan.noPlan ?? "valid" } : parent?.plan;
    if (mode === "plan" && agent !== "armstudy") {
      throw new PackError("FIELD", own.file, "mode", `a ${agent} arm runs the client with its own modes; plan runs are for agent: armstudy.`);
    }
    if (own.data.plan !== undefined && mode !== "plan") {
      throw new PackError("FIELD", own.file, "plan", "sets plan-run settings, but the arm is not a plan run. Add `mode: plan`, or remove plan.");
    }
    return {
      description: own.data.description ?? parent?.description ?? "",
      agent,
      policies,
      goal,
      context,
      mode,
      plan,
    };
  }

  private async rejectPackForClient(own: ArmRead, agent: AgentKind): Promise<void> {
    const why = `a ${agent} arm runs the client with its own prompt, so it has no prompt pack`;
    if (own.data.prompt !== undefined) throw new PackError("FIELD", own.file, "prompt", `${why}; remove prompt.`);
    if ((own.data.sections?.length ?? 0) > 0) throw new PackError("FIELD", own.file, "sections", `${why}; remove sections.`);
    const files = await this.ownSectionFiles(this.tree, own.name);
    if (files.length > 0) throw new PackError("FIELD", this.tree.display(`${own.name}/sections/${files[0]}`), "", `${why}; remove the sections folder.`);
  }

  private async ownSectionFiles(source: ArmSource, name: string): Promise<string[]> {
    return (await source.list(`${name}/sections`)).filter((file) => file.endsWith(".md"));
  }

  /**
   * The arm's sections in declared order: the parent's (extends), then its own section files
   * (replacing a parent's section with the same id in place), then its arm.yaml entries.
   */
  private async sections(source: ArmSource, name: string, chain: string[], pinned: boolean, from: { file: string; field: string } | null): Promise<PromptSection[]> {
    const own = await this.read(source, name, from);
    if (pinned && own.data.prompt !== undefined) {
      throw new PackError("FIELD", own.file, "prompt.ref", "a pack read from a git ref cannot itself be pinned to another ref; point the pin at the arm whose sections you want.");
    }
    if (chain.includes(name)) {
      throw new PackError("EXTENDS_CYCLE", own.file, "extends", `leads back to "${name}" (${[...chain, name].join(" → ")}); break the cycle.`);
    }
    let list: PromptSection[] = [];
    if (own.data.extends !== undefined) {
      list = await this.sections(source, own.data.extends, [...chain, name], pinned, { file: own.file, field: "extends" });
    }
    const put = (section: PromptSection): void => {
      const at = list.findIndex((s) => s.id === section.id);
      if (at === -1) list.push(section);
      else list[at] = section;
    };

    const ownIds = new Map<string, string>();
    const claim = (id: string, origin: string, field: string, file: string): void => {
      const first = ownIds.get(id);
      if (first !== undefined) {
        throw new PackError("DUPLICATE_SECTION", file, field, `section id "${id}" is already used by ${first}; give one of them another id.`);
      }
      ownIds.set(id, origin);
    };

    for (const fileName of await this.ownSectionFiles(source, name)) {
      const file = source.display(`${name}/sections/${fileName}`);
      const text = (await source.read(`${name}/sections/${fileName}`)) ?? "";
      const parsed = parseSectionFile(text, file);
      this.lines.set(file, sectionFileLines(text));
      checkReporting(parsed.id, parsed.stable, parsed.cut, file, "front matter");
      claim(parsed.id, file, "front matter.id", file);
      put({ id: parsed.id, order: parsed.order, stable: parsed.stable, cut: parsed.cut, budget: {}, source: { kind: "markdown", text: parsed.body }, origin: file });
    }

    (own.data.sections ?? []).forEach((entry, index) => {
      const field = `sections.${index}`;
      if (entry.remove === true) {
        if (entry.builtin !== undefined) throw new PackError("FIELD", own.file, field, "has both builtin and remove; an entry either adds a builtin section or removes an inherited one.");
        const at = list.findIndex((s) => s.id === entry.id && !ownIds.has(s.id));
        if (at === -1) {
          throw new PackError("FIELD", own.file, `${field}.id`, `there is no inherited section "${entry.id}" to remove (inherited: ${list.map((s) => s.id).join(", ") || "none"}).`);
        }
        list.splice(at, 1);
        return;
      }
      if (entry.builtin === undefined) {
        throw new PackError("FIELD", own.file, field, "needs `builtin: NAME` (a render-function section) or `remove: true`; markdown sections come from sections/*.md on their own.");
      }
      const render = BUILTIN_SECTIONS[entry.builtin];
      if (render === undefined) {
        throw new PackError("UNKNOWN_BUILTIN", own.file, `${field}.builtin`, `"${entry.builtin}" is not a builtin section. Builtins: ${builtinNames().join(", ")}.`);
      }
      const stable = entry.stable ?? true;
      const cut = entry.cut ?? "never";
      checkReporting(entry.id, stable, cut, own.file, field);
      claim(entry.id, `${own.file} ${field}`, `${field}.id`, own.file);
      put({ id: entry.id, order: entry.order ?? DEFAULT_BUILTIN_ORDER, stable, cut, budget: {}, source: { kind: "render", name: entry.builtin, render }, origin: own.file });
    });
    return list;
  }

  private git(ref: string, file: string): Promise<ArmSource> {
    let source = this.gitSources.get(ref);
    if (source === undefined) {
      source = gitRefSource(this.dir, ref, { file, field: "prompt.ref" });
      this.gitSources.set(ref, source);
    }
    return source;
  }
}

/**
 * Every option of every policy, checked when the arm loads (budget, prompt show, run and study all
 * load arms here), so a typo such as `maxNudgez` stops the command before anything runs.
 */
export function checkPolicies(policies: readonly PolicySpec[], file: string, field = "policies"): void {
  const problem = checkPolicySpecs(policies);
  if (problem === null) return;
  const options = `${field}.${problem.index}.options`;
  const where = problem.index === null ? field : problem.option === undefined ? options : `${options}.${problem.option}`;
  throw new PackError("FIELD", file, where, `${problem.message}. Fix the option name or value in ${file}.`);
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Builtin sections without an `order` sort after sections numbered below 1000. */
export const DEFAULT_BUILTIN_ORDER = 1000;

function checkReporting(id: string, stable: boolean, cut: string, file: string, field: string): void {
  if (id !== REPORTING_SECTION_ID) return;
  if (!stable) throw new PackError("FIELD", file, `${field}.stable`, "the reporting section always ends the stable prefix; remove `stable: false`.");
  if (cut !== "never") throw new PackError("FIELD", file, `${field}.cut`, "the reporting section is never cut (over budget is a violation); remove `cut: tail`.");
}

export type { Budgets };
