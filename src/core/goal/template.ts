/**
 * Prompt templates: markdown with named `{{placeholder}}`s. The text lives in `prompts/*.md`
 * beside the code that renders it and is embedded as string constants in `templates.ts` (core
 * reads no files; see docs/decisions/0020-prompt-templates-embedded-as-constants.md). Person- and
 * model-written text is XML-escaped before it goes into a template, so it can never close the
 * tag that marks it as data.
 */

const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;

export class TemplateError extends Error {
  readonly code: "template_missing_value" | "template_unknown_value";
  constructor(code: TemplateError["code"], message: string) {
    super(message);
    this.name = "TemplateError";
    this.code = code;
  }
}

/** The placeholder names a template uses, in order of first appearance. */
export function placeholders(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Fills every placeholder. A placeholder without a value, or a value no placeholder uses, is a
 * programming error and throws with both names, so a template and its renderer cannot drift.
 */
export function renderTemplate(name: string, template: string, values: Readonly<Record<string, string>>): string {
  const used = placeholders(template);
  const missing = used.filter((key) => !(key in values));
  if (missing.length > 0) {
    throw new TemplateError("template_missing_value", `template "${name}" needs a value for {{${missing.join("}}, {{")}}}; pass it to the renderer`);
  }
  const unknown = Object.keys(values).filter((key) => !used.includes(key));
  if (unknown.length > 0) {
    throw new TemplateError("template_unknown_value", `template "${name}" has no placeholder {{${unknown.join("}}, {{")}}}; remove the value or add the placeholder to prompts/${name}.md`);
  }
  return template.replace(PLACEHOLDER, (_, key: string) => values[key]!);
}

/** Escapes the three characters that could open or close markup: `&`, `<`, `>`. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Reverses `escapeXml` (and the two quote entities a model may add when it copies text). */
export function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** `90_000` → "1 min", `3_900_000` → "1 h 5 min", `28_800_000` → "8 h". Whole minutes, rounded down. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
