/**
 * Generated from src/core/policies/prompts/*.md by test/core/goal/sync-templates.ts — edit the markdown, then run
 * `npx tsx test/core/goal/sync-templates.ts`. A test fails when the two differ.
 */
export const TEMPLATES = {
  loop_guard_nudge: "This message comes from the harness: the work looks stuck in a loop.\n\n{{evidence}}\n\nStop and think before the next step. Read the last outputs again, find out why they did not move the work forward, and try a different approach. If you cannot get further, say plainly what blocks you and what the person would need to do. If the loop goes on, the harness will stop the run as blocked.\n",
  measure_continue: "This message comes from the harness: iteration {{iteration}} of at most {{max_iterations}} is over. The measure command printed {{value}}; the best so far is {{best}} ({{direction}} is better). {{trend}}\n\nTarget:\n\n<loop_target>\n{{target}}\n</loop_target>\n\nMake the next change that should move the number. If your last change made it worse, undo that change first. The harness runs the measure again when your reply ends; it stops after {{window}} iterations in a row without a new best.\n",
  reply_check_continue: "This message comes from the harness. An independent check of your last reply found the request not yet done:\n\n<review_reason>\n{{reason}}\n</review_reason>\n\nContinue the work. When you end your reply, make sure the proof of what you did is in tool output.\n",
  slice_checkpoint: "This message comes from the harness: work slice {{slice}} of {{max_slices}} has reached its budget, and the next slice starts now. Checkpoint of the work so far:\n\n- Files changed: {{files}}\n- Checks failing at their last run: {{failing}}\n- Next step: {{next_step}}\n\nContinue from this checkpoint. Before you do more, write one or two sentences for the person: what the last slice achieved and what you will do next.\n",
  todo_nudge: "This message comes from the harness ({{count}} of {{max}}). Your reply ended while the todo list still has open items:\n\n{{open_items}}\n\nThe list shows progress; it is not the limit of the work, and the request is the scope. If these items are done, mark them done. If one cannot be done, say why in your reply. Otherwise, continue with the next one.\n",
} as const;

export type TemplateName = keyof typeof TEMPLATES;
