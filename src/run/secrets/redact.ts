/**
 * Redaction: every secret value armstudy holds is replaced before anything a server (or a thrown
 * error) said is written to a record, a result, a summary, a report or stderr (ADR 0083). Secrets
 * are values, not names: a key echoed back by a provider is found wherever it appears.
 */

/** A secret value and, when known, the environment variable it came from. */
export interface Secret {
  value: string;
  name?: string;
}

/** Shorter values are not treated as secrets: redacting "1" or "true" would destroy the text. */
export const MIN_SECRET_CHARS = 8;

/** Variable names that carry a credential (matched against the whole name, any case). */
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /API_?KEY$/i,
  /_KEY$/i,
  /TOKEN$/i,
  /SECRET/i,
  /PASSWORD|PASSWD/i,
  /CREDENTIAL/i,
  /^AUTHORIZATION$/i,
  /_AUTH$/i,
  /COOKIE/i,
  /_PAT$/i,
];

export function isSecretName(name: string): boolean {
  return SECRET_NAME_PATTERNS.some((pattern) => pattern.test(name));
}

/** The password of a URL-shaped value (`postgres://u:PASSWORD@host/db`), if any. */
function urlPassword(value: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  try {
    const password = decodeURIComponent(new URL(value).password);
    return password.length > 0 ? password : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The secrets in an environment: the values of variables whose names say credential, and the
 * password inside any URL-shaped value (a `DATABASE_URL`). Values shorter than MIN_SECRET_CHARS are skipped.
 */
export function secretsFromEnv(env: Record<string, string | undefined>): Secret[] {
  const found: Secret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretName(name) && value.length >= MIN_SECRET_CHARS) found.push({ value, name });
    const password = urlPassword(value);
    if (password !== undefined && password.length >= MIN_SECRET_CHARS) found.push({ value: password, name });
  }
  return found;
}

function asSecret(item: string | Secret): Secret {
  return typeof item === "string" ? { value: item } : item;
}

/** The forms a value may take in text: itself, URL-encoded, JSON-escaped. */
function formsOf(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
  return [...forms].filter((form) => form.length > 0);
}

/** `text` with every form of every secret replaced by `[redacted NAME]`. Longest secrets first. */
export function redactText(text: string, secrets: readonly (string | Secret)[]): string {
  if (secrets.length === 0 || text.length === 0) return text;
  const sorted = secrets.map(asSecret).filter((secret) => secret.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  let out = text;
  for (const secret of sorted) {
    const mark = secret.name ? `[redacted ${secret.name}]` : "[redacted]";
    for (const form of formsOf(secret.value)) if (out.includes(form)) out = out.split(form).join(mark);
  }
  return out;
}

/** A deep copy of a JSON-like value with every string (keys included) redacted. */
export function redactValue<T>(value: T, secrets: readonly (string | Secret)[]): T {
  if (secrets.length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return redactText(item, secrets);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === "object") {
      return Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([key, inner]) => [redactText(key, secrets), walk(inner)]));
    }
    return item;
  };
  return walk(value) as T;
}

/** Redaction bound to one set of secrets. */
export interface Redactor {
  text(text: string): string;
  value<T>(value: T): T;
}

export function createRedactor(secrets: readonly (string | Secret)[]): Redactor {
  return { text: (text) => redactText(text, secrets), value: (value) => redactValue(value, secrets) };
}

export const NO_REDACTION: Redactor = { text: (text) => text, value: (value) => value };
