/**
 * Which files an edit or write call changes, from its arguments, for every agent's spelling: a
 * path argument (Edit, Write, edit_file…), Codex's `apply_patch` text (`*** Update File: …`),
 * `codex exec`'s `file_change` list, Claude Code's MultiEdit. Pure; used by the edits-per-file
 * and file-change metrics.
 */
import { PATH_KEYS } from "./tool-families.ts";

const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;

export function filesEditedBy(args: Record<string, unknown>): string[] {
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value === "string" && value.length > 0) return [value];
  }
  const patch = typeof args.input === "string" ? args.input : typeof args.patch === "string" ? args.patch : typeof args.raw === "string" ? args.raw : null;
  if (patch !== null) {
    const files = [...patch.matchAll(PATCH_FILE)].map((m) => (m[1] as string).trim());
    if (files.length > 0) return files;
  }
  if (Array.isArray(args.changes)) {
    return args.changes.flatMap((c) => (typeof c === "object" && c !== null && typeof (c as Record<string, unknown>).path === "string" ? [(c as Record<string, unknown>).path as string] : []));
  }
  return [];
}

/** The texts of a checklist written by a plan tool (TodoWrite `todos[].content`, update_plan `plan[].step`), or null. */
export function checklistTexts(name: string, args: Record<string, unknown>): string[] | null {
  const list = Array.isArray(args.todos) ? args.todos : Array.isArray(args.plan) ? args.plan : null;
  if (list === null) return null;
  return list.map((item) => {
    if (typeof item !== "object" || item === null) return String(item);
    const o = item as Record<string, unknown>;
    const text = o.content ?? o.step ?? o.text ?? o.title ?? "";
    return typeof text === "string" ? text : JSON.stringify(text);
  });
}
