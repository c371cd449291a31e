/**
 * What the accounting bench counts as token accounting in a CPU profile (ADRs 0131, 0174): a
 * sample whose stack passes through a call into the loop's or the double's counter (entered, so
 * its frames are ENTRY_FILE's: everything the counter calls, in any file), or through the
 * accounting's files (the request counter and its JSON comparison, everything of src/core/tokens,
 * for any use outside a counter call). The union, so the definition is never narrower than
 * either; the two parts are also counted apart, so a figure shows when one catches what the other
 * misses.
 */
import { ENTRY_FILE } from "./counter-entry.ts";

export const ACCOUNTING_FILES = /\/src\/(run\/agent-tokens\.ts|run\/same-json\.ts|core\/tokens\.ts|core\/tokens\/)/;

export const ACCOUNTING = new RegExp(`${ACCOUNTING_FILES.source}|${ENTRY_FILE.source}`);
