/**
 * The environment a model's shell command sees: the run's environment minus credentials, so a
 * command the model writes cannot read (or leak) the keys armstudy itself was given.
 */

/** Variable names that carry a credential. Matched case-insensitively against the whole name. */
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /API_?KEY$/i, // OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_APIKEY
  /_KEY$/i, // AWS_SECRET_ACCESS_KEY, *_PRIVATE_KEY, ARMSTUDY_KEY
  /TOKEN$/i, // GITHUB_TOKEN, NPM_TOKEN, HF_TOKEN, *_AUTH_TOKEN
  /SECRET/i, // CLIENT_SECRET, *_SECRET_*
  /PASSWORD|PASSWD/i, // PGPASSWORD, *_PASSWORD
  /CREDENTIAL/i, // GOOGLE_APPLICATION_CREDENTIALS
  /^AUTHORIZATION$/i,
  /_AUTH$/i, // NPM_CONFIG__AUTH style
  /COOKIE/i,
];

export function isSecretName(name: string): boolean {
  return SECRET_NAME_PATTERNS.some((pattern) => pattern.test(name));
}

/** A copy of `env` without credentials, with pagers turned off so commands never wait on one. */
export function shellEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecretName(name)) continue;
    result[name] = value;
  }
  result.PAGER = "cat";
  result.GIT_PAGER = "cat";
  result.GIT_TERMINAL_PROMPT = "0";
  return result;
}
