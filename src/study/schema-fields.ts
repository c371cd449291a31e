/**
 * The field names a zod object schema accepts at a path, read from the schema itself, so an
 * "Unrecognized key" message can say which field was meant (`timout` → `timeout`) without a
 * second, hand-kept list of names that drifts from the schema.
 */
import type { z } from "zod";

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas a value at `path` may match (every branch of a union). */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType[] {
  const def = defOf(schema);
  const inner = def.innerType ?? def.in;
  if (inner !== undefined) return objectsAt(inner, path);
  if (def.type === "union") return (def.options ?? []).flatMap((option) => objectsAt(option, path));
  if (path.length === 0) return def.type === "object" ? [schema] : [];
  const [head, ...rest] = path;
  if (def.type === "array" && typeof head === "number" && def.element !== undefined) return objectsAt(def.element, rest);
  if (def.type === "object" && typeof head === "string" && def.shape?.[head] !== undefined) return objectsAt(def.shape[head], rest);
  return [];
}

/** The fields an object at `path` of `schema` may have (empty when the path leads to no object). */
export function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((object) => Object.keys(defOf(object).shape ?? {})))];
}
