/**
 * The counter's call tree, for the accounting bench's profile share (ADR 0174): where each of a
 * class's methods (own and inherited, public or not, accessors and the constructor too) starts, as V8 names it
 * (script id, line, column; a profile's call frames carry the same three), read through the
 * inspector. A sample whose stack holds one of these frames is inside a call into the counter,
 * whatever file the work it called lives in, and nothing is added to any call to know it.
 */
import type { Runtime } from "node:inspector";
import type { Session } from "node:inspector/promises";

/** A function's start as a key: the same for its [[FunctionLocation]] and its profile call frames. */
export function locationKey(location: { scriptId: string; lineNumber: number; columnNumber: number }): string {
  return `${location.scriptId}:${location.lineNumber}:${location.columnNumber}`;
}

/** Every method, getter and setter on the classes' prototype chains (up to Object's), and their constructors. */
export function methodsOf(classes: readonly (abstract new (...args: never[]) => object)[]): Function[] {
  const found = new Set<Function>();
  for (const Class of classes) {
    for (let proto: object | null = Class.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const { value, get, set } = Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor;
        for (const fn of [value, get, set]) if (typeof fn === "function") found.add(fn as Function);
      }
    }
  }
  return [...found];
}

const PROBE = "__accountingBenchProbe";

/** The location keys of `functions`, asked of V8 through a connected session. */
export async function functionKeys(session: Session, functions: readonly Function[]): Promise<Set<string>> {
  const keys = new Set<string>();
  const global = globalThis as Record<string, unknown>;
  try {
    for (const fn of functions) {
      global[PROBE] = fn;
      const { result } = await session.post("Runtime.evaluate", { expression: `globalThis.${PROBE}`, objectGroup: PROBE });
      const { internalProperties } = await session.post("Runtime.getProperties", { objectId: result.objectId as string, ownProperties: true });
      const location = internalProperties?.find((p) => p.name === "[[FunctionLocation]]")?.value?.value as { scriptId: string; lineNumber: number; columnNumber: number } | undefined;
      if (location !== undefined) keys.add(locationKey(location));
    }
  } finally {
    delete global[PROBE];
    await session.post("Runtime.releaseObjectGroup", { objectGroup: PROBE });
  }
  return keys;
}

/** Whether a profile frame is one of the functions. */
export function isOneOf(keys: ReadonlySet<string>): (frame: Runtime.CallFrame) => boolean {
  return (frame) => keys.has(locationKey(frame));
}
