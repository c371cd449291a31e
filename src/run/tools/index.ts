/**
 * The toolbox: the built-in tools by name, plus any the caller adds (the goal tools while a goal
 * exists). `run` never throws for a model's mistake: an unknown tool, bad arguments or a refused
 * path come back as `ok: false` with a message the model can act on.
 */
import type { ToolCall, ToolSpec } from "../../core/model.ts";
import { editFileTool, listFilesTool, readFileTool, searchTool, writeFileTool } from "./files.ts";
import { askUserTool, updatePlanTool } from "./plan.ts";
import { shellTool } from "./shell.ts";
import { type Tool, type ToolContext, ToolError, type ToolOutcome } from "./types.ts";

export { capMiddle, HeadTailCollector } from "./output.ts";
export { confine } from "./paths.ts";
export { isSecretName, shellEnvironment } from "./env.ts";
export { runCommand } from "./shell.ts";
export { UNATTENDED_ANSWER } from "./plan.ts";
export * from "./types.ts";

/** The built-in tools in the order the model sees them. */
export const BUILTIN_TOOLS: readonly Tool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listFilesTool,
  searchTool,
  shellTool,
  updatePlanTool,
  askUserTool,
];

export type BuiltinToolName = "read_file" | "write_file" | "edit_file" | "list_files" | "search" | "shell" | "update_plan" | "ask_user";

export class Toolbox {
  private readonly byName: Map<string, Tool>;
  private readonly specList: ToolSpec[];

  constructor(tools: readonly Tool[]) {
    this.byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
    this.specList = Object.freeze([...this.byName.values()].map((tool) => tool.spec)) as ToolSpec[];
  }

  /** What the model is offered, in order: the same array every time, so its token count is cached. */
  specs(): ToolSpec[] {
    return this.specList;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** A toolbox with `extra` added (or replacing tools of the same name). */
  with(extra: readonly Tool[]): Toolbox {
    return new Toolbox([...this.byName.values(), ...extra]);
  }

  async run(call: ToolCall, context: ToolContext): Promise<ToolOutcome> {
    const tool = this.byName.get(call.name);
    if (tool === undefined) {
      const known = [...this.byName.keys()].join(", ");
      return { ok: false, output: `unknown tool "${call.name}"; the tools are: ${known}` };
    }
    try {
      return await tool.run(call.arguments, context);
    } catch (error) {
      if (error instanceof ToolError) return { ok: false, output: error.message };
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, output: `${call.name} failed: ${message}` };
    }
  }
}

/** The built-in toolbox, optionally limited to some tool names. */
export function createToolbox(names?: readonly string[]): Toolbox {
  if (names === undefined) return new Toolbox(BUILTIN_TOOLS);
  const unknown = names.filter((name) => !BUILTIN_TOOLS.some((tool) => tool.spec.name === name));
  if (unknown.length > 0) {
    throw new ToolError("TOOL_UNKNOWN", `unknown tool name(s): ${unknown.join(", ")}; built-in tools are ${BUILTIN_TOOLS.map((t) => t.spec.name).join(", ")}`);
  }
  return new Toolbox(BUILTIN_TOOLS.filter((tool) => names.includes(tool.spec.name)));
}
