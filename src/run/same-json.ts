/**
 * Whether two values are sure to give the same JSON.stringify text, decided without making it
 * (ADR 0131): the request counter uses it to find a reply equal to a recent one (a model that
 * repeats a call sends the same name and arguments in new objects) without building and looking
 * up its text. Plain data only: the same value, primitives equal by ===, arrays of the same
 * length, plain objects with the same keys in the same order. Anything else, a toJSON, or nesting past a depth
 * answers false, which only costs the text being built: never a wrong count.
 */

const MAX_DEPTH = 32;

export function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  // The same value: the counter already takes what it is handed as never changing afterwards.
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth >= MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !plainObject(a) || !plainObject(b)) return false;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (key !== other[i] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function plainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !("toJSON" in value);
}
