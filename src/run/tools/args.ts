/** Argument validation shared by the tools: one zod schema per tool, errors that name the field. */
import type { z } from "zod";
import { ToolError } from "./types.ts";

export function parseArgs<T>(tool: string, schema: z.ZodType<T>, args: Record<string, unknown>): T {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
      return `\`${field}\`: ${issue.message}`;
    })
    .join("; ");
  throw new ToolError("TOOL_BAD_ARGUMENTS", `${tool}: bad arguments — ${detail}`);
}
