/**
 * Where a field sits in a YAML file, for messages: `line 12` beside `field runs`. Built from the
 * text only when a message needs it, so the value a file parses to is unchanged.
 */
import { LineCounter, isMap, isNode, isScalar, parseDocument } from "yaml";

/** The 1-based line of the value at `path`, or of the key `key` of the map at `path`; undefined when absent. */
export type LineOf = (path: readonly PropertyKey[], key?: string) => number | undefined;

export function yamlLines(text: string): LineOf {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const line = (offset: number | undefined): number | undefined => (offset === undefined ? undefined : counter.linePos(offset).line);
  return (path, key) => {
    const node = path.length === 0 ? doc.contents : doc.getIn(path.map((part) => (typeof part === "symbol" ? String(part) : part)), true);
    if (!isNode(node)) return undefined;
    if (key !== undefined && isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
      if (pair !== undefined && isNode(pair.key)) return line(pair.key.range?.[0]);
    }
    return line(node.range?.[0]);
  };
}

/** `line N: ` to put before a message's field, or nothing when the line is not known. */
export function linePrefix(line: number | undefined): string {
  return line === undefined ? "" : `line ${line}: `;
}

/** yamlLines, parsed on the first question only: a file that validates is never parsed twice. */
export function lazyYamlLines(text: string): LineOf {
  let lineOf: LineOf | undefined;
  return (path, key) => (lineOf ??= yamlLines(text))(path, key);
}

/**
 * The line of a dotted field a message names (`policies.0.options`): the key's own line, or an
 * item's line for a list index; undefined when the file has no such field.
 */
export function lineOfField(lineOf: LineOf, field: string): number | undefined {
  if (field === "") return undefined;
  const path = field.split(".");
  const last = path.at(-1) ?? "";
  return /^\d+$/.test(last) ? lineOf(path) : lineOf(path.slice(0, -1), last);
}
