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
