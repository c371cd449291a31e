/**
 * Finding a character that is probably close. A native search (`indexOf`) costs a call, ~6 ns on
 * the 2-core bench machine however close the answer is, while reading a character in JS costs
 * ~1.4 ns: on a reply of lines a few characters long, each line end or `<` is found faster by
 * reading the next few characters, and a far one is found by the native search after them
 * (docs/decisions/0159).
 */

/** How many characters are read in JS before a native search takes over: about one call's cost. */
export const NEAR = 4;

/** The offset of the first `char` (whose code is `code`) at or after `from` in `text`, or -1; as `text.indexOf(char, from)`. */
export function indexOfNear(text: string, code: number, char: string, from: number): number {
  const stop = Math.min(from + NEAR, text.length);
  for (let i = from; i < stop; i += 1) if (text.charCodeAt(i) === code) return i;
  return stop === text.length ? -1 : text.indexOf(char, stop);
}
