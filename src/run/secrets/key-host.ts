/**
 * Where a key may go (ADR 0083). A key is sent only to its provider's own host, unless the person
 * running armstudy typed another base URL on the command line (`--model`): a study file is shared
 * text, and one that says `openai-compatible:m@https://elsewhere/v1#OPENAI_API_KEY` must not be able
 * to send the key there. Keys never travel inside a URL (userinfo or a query parameter).
 */
import { isSecretName } from "./redact.ts";

/** Where a model spec came from: typed by the person (`--model`), or read from a study file. */
export type SpecOrigin = "command-line" | "study-file";

/** Query parameter names that carry a credential (`?api_key=`, `?token=`, `?sig=` …). */
const KEY_PARAM = /key|token|secret|passw|auth|sig|credential/i;

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Why a key must not be sent to `baseUrl`, or null when it may. `ownBaseUrl` is the provider's own
 * (its compat row's default); a provider with none has no own host, so a keyed spec must come
 * from the command line.
 */
export function keyHostProblem(input: { baseUrl: string; ownBaseUrl: string | undefined; keyEnv: string; origin: SpecOrigin }): string | null {
  if (input.origin === "command-line") return null;
  const own = input.ownBaseUrl === undefined ? null : hostOf(input.ownBaseUrl);
  const target = hostOf(input.baseUrl);
  if (own !== null && target === own) return null;
  return (
    `it would send the key in ${input.keyEnv} to ${target ?? input.baseUrl}, which is not ${own === null ? "a provider's own host" : `the provider's own host (${own})`}. ` +
    "A study file cannot send a key to another host: name the base URL yourself with --model on the command line"
  );
}

/** Why a base URL is refused for carrying a key, or null. `secrets` are values the environment holds. */
export function urlKeyProblem(raw: string, secrets: readonly string[] = []): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return `base URL "${raw}" carries credentials; put the key in an environment variable and name it with #ENV`;
  for (const [name, value] of url.searchParams) {
    if (KEY_PARAM.test(name) || isSecretName(name) || (value.length > 0 && secrets.includes(value))) {
      return `base URL carries a key in its query (parameter "${name}"); put the key in an environment variable and name it with #ENV`;
    }
  }
  return null;
}
