/**
 * The counter's call tree, for the accounting bench's profile share (ADR 0174). `entered(Base)`
 * is Base with every method (own and inherited, public or not) called through a small function
 * defined in this file, so a CPU profile sample whose stack holds a frame of this file is in a
 * call into the counter, whatever file the work it called lives in: code the counter comes to
 * call from a new file cannot escape the accounting. The entry adds one call per method call
 * (tens of ns; counted as accounting, so the share errs high by it).
 */

/** A profile frame's url is this file's: the sample is inside a call into an entered counter. */
export const ENTRY_FILE = /\/scripts\/bench\/lib\/counter-entry\.ts$/;

// A mixin's base must take any constructor arguments.
type Constructor = abstract new (...args: any[]) => object;

export function entered<C extends Constructor>(Base: C): C {
  // @ts-expect-error: a class extending an abstract constructor type is fine at run time.
  const Entered = class extends Base {};
  for (let proto: object | null = Base.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      // The nearest definition wins, as method lookup would find it.
      if (name === "constructor" || Object.hasOwn(Entered.prototype, name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor;
      if (typeof descriptor.value !== "function") continue;
      const method = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(Entered.prototype, name, {
        ...descriptor,
        value: function counterEntry(this: unknown, ...args: unknown[]): unknown {
          return method.apply(this, args);
        },
      });
    }
  }
  return Entered as C;
}
