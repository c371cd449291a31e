/**
 * Edit blocks a harness applies as written (docs/decisions/0152). Aider's reply carries its edits as
 * SEARCH/REPLACE blocks (`<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE`, in a fence or not) and the
 * harness applies them when the reply ends: a reply that holds one delivers that change, whatever
 * its one-line preamble says ("To add X we need to modify `cli.py`:", "Here are the changes:").
 * The prose reader skips fenced code, so this reads the raw text: three forward searches, linear.
 */

const SEARCH = "<<<<<<< SEARCH";
const DIVIDER = "\n=======";
const REPLACE = ">>>>>>> REPLACE";

/** Whether `index` starts a line, allowing indentation (a block inside a list item). */
function atLineStart(text: string, index: number): boolean {
  let k = index - 1;
  while (k >= 0 && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k -= 1;
  return k < 0 || text.charCodeAt(k) === 10;
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
