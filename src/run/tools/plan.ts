/**
 * update_plan (the model's todo list, display only: the loop records it and policies may read it)
 * and ask_user (in an unattended run nobody answers; the question is recorded and the model is
 * told to go on with its best judgement or to end its reply saying what it needs).
 */
import { z } from "zod";
import { parseArgs } from "./args.ts";
import type { Tool } from "./types.ts";

const Status = z.enum(["pending", "in_progress", "completed"]);
const PlanArgs = z.object({
  items: z.array(z.object({ text: z.string().min(1), status: Status })),
  explanation: z.string().optional(),
});

export const updatePlanTool: Tool = {
  spec: {
    name: "update_plan",
    description:
      "Set your todo list for this work: every item with its status (pending, in_progress or completed). Send the whole list each time. At most one item is in_progress.",
    parameters: {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: {
              text: { type: "string", description: "One step of the work." },
              status: { type: "string", enum: ["pending", "in_progress", "completed"] },
            },
            required: ["text", "status"],
            additionalProperties: false,
          },
        },
        explanation: { type: "string", description: "Optional note on why the list changed." },
      },
      required: ["items"],
      additionalProperties: false,
    },
  },
  async run(args) {
    const { items } = parseArgs("update_plan", PlanArgs, args);
    const inProgress = items.filter((item) => item.status === "in_progress").length;
    if (inProgress > 1) {
      return { ok: false, output: `update_plan: ${inProgress} items are in_progress; keep at most one`, plan: items };
    }
    const done = items.filter((item) => item.status === "completed").length;
    return { ok: true, output: `plan updated: ${done} of ${items.length} completed`, plan: items };
  },
};

const AskArgs = z.object({ question: z.string().min(1) });

export const UNATTENDED_ANSWER =
  "No person is available to answer in this run. Decide with your best judgement and carry on; if you cannot go on without an answer, end your reply and say exactly what you need.";

export const askUserTool: Tool = {
  spec: {
    name: "ask_user",
    description: "Ask the person a question. Use it only when you cannot go on without their answer.",
    parameters: {
      type: "object",
      properties: { question: { type: "string", description: "The question, complete in itself." } },
      required: ["question"],
      additionalProperties: false,
    },
  },
  async run(args) {
    const { question } = parseArgs("ask_user", AskArgs, args);
    return { ok: false, output: UNATTENDED_ANSWER, question };
  },
};
