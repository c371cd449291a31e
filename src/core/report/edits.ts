/**
 * Edit blocks a harness applies as written (docs/decisions/0152). Aider's reply carries its edits as
 * SEARCH/REPLACE blocks (`<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE`, in a fence or not) and the
 * harness applies them when the reply ends: a reply that holds one delivers that change, whatever
 * its one-line preamble says ("To add X we need to modify `cli.py`:", "Here are the changes:") — unless its ending
 * asks whether to go ahead with them (EDIT_CONSENT).
 * The prose reader skips fenced code, so this reads the raw text: three forward searches, linear.
 */

/**
 * An ending that asks whether to go ahead with the edits shown ("Please confirm if you would like to proceed
 * with these changes.", "Shall I apply them?"): the blocks are offered, not delivered (docs/decisions/0152).
 */
export const EDIT_CONSENT = /\b(?:please )?confirm\b[^.?!\n]{0,60}\b(?:proceed|apply|go ahead|continue)\b|\b(?:like|want|wish) (?:me )?to (?:proceed|apply|go ahead)\b|\b(?:shall|should|may|can) I (?:proceed|apply|go ahead)\b/i;

const SEARCH = "<<<<<<< SEARCH";
const DIVIDER = "\n=======";
const REPLACE = ">>>>>>> REPLACE";

/** Whether `index` starts a line, allowing indentation (a block inside a list item). */
function atLineStart(text: string, index: number): boolean {
  let k = index - 1;
  while (k >= 0 && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k -= 1;
  return k < 0 || text.charCodeAt(k) === 10;
}

/** What the text's edit blocks are: none, applied as written, or offered (the text after the last one asks whether to go ahead). */
export type EditBlocks = "none" | "applied" | "offered";

/**
 * Reads the raw text, not the prose: a block whose content holds fences of its own (a README with a
 * ```bash block) leaves the reader's fences out of step, so the ask after it can fall inside "code".
 */
export function editBlocks(text: string): EditBlocks {
  if (!hasEditBlock(text)) return "none";
  const after = text.slice(text.lastIndexOf(REPLACE) + REPLACE.length).slice(0, 600);
  return EDIT_CONSENT.test(after) ? "offered" : "applied";
}

/** Whether the text holds a complete SEARCH/REPLACE block (its markers each at the start of a line). */
export function hasEditBlock(text: string): boolean {
  let start = text.indexOf(SEARCH);
  while (start !== -1 && !atLineStart(text, start)) start = text.indexOf(SEARCH, start + SEARCH.length);
  if (start === -1) return false;
  const divider = text.indexOf(DIVIDER, start + SEARCH.length);
  if (divider === -1) return false;
  const end = text.indexOf(REPLACE, divider + DIVIDER.length);
  return end !== -1 && atLineStart(text, end);
}
