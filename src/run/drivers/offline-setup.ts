/**
 * How to launch each real client against a model server of our choosing, with nothing but that
 * server contacted: the files its temp home needs, its environment and its arguments. Data per
 * client, taken from the offline trials in the research notes; the driver writes the files and
 * spawns the process.
 */
import { join } from "node:path";
import type { ClientName } from "./clients.ts";

export interface ClientLaunch {
  /** Files to write before the run, by absolute path. */
  files: Record<string, string>;
  env: Record<string, string>;
  args: string[];
  /** Where the client writes its own session file, to cross-check the event stream. */
  sessionDir: string;
}

export interface LaunchInput {
  /** The model server's base URL, without a trailing `/v1`. */
  baseUrl: string;
  /** A fresh temp folder that becomes the client's home. */
  home: string;
  prompt: string;
  /** The model id to ask for. */
  model: string;
  /** The API key to send; a dummy for the persona server. */
  apiKey: string;
}

/** Telemetry, update checks and error reporting off: the switches each client documents. */
const QUIET_CLAUDE = {
  DISABLE_TELEMETRY: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_ERROR_REPORTING: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
};

export const CLIENT_LAUNCH: Record<ClientName, (input: LaunchInput) => ClientLaunch> = {
  codex: ({ baseUrl, home, prompt, model, apiKey }) => ({
    files: {
      [join(home, "config.toml")]: [
        `model = ${JSON.stringify(model)}`,
        `model_provider = "armstudy"`,
        "[model_providers.armstudy]",
        `name = "armstudy"`,
        `base_url = ${JSON.stringify(`${baseUrl}/v1`)}`,
        `wire_api = "responses"`,
        `env_key = "ARMSTUDY_MODEL_KEY"`,
        "request_max_retries = 0",
        "stream_max_retries = 0",
        // Without these two, Codex looks up analytics and plugin hosts at start-up.
        "[analytics]",
        "enabled = false",
        "[features]",
        "plugins = false",
        "",
      ].join("\n"),
    },
    env: { CODEX_HOME: home, HOME: home, ARMSTUDY_MODEL_KEY: apiKey },
    args: ["exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", prompt],
    sessionDir: join(home, "sessions"),
  }),
  claude: ({ baseUrl, home, prompt, model, apiKey }) => ({
    files: {},
    // IS_SANDBOX lets the permission bypass run as root, which CI is.
    env: { HOME: home, ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_API_KEY: apiKey, IS_SANDBOX: "1", ...QUIET_CLAUDE },
    args: ["-p", prompt, "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--model", model],
    sessionDir: join(home, ".claude", "projects"),
  }),
  pi: ({ baseUrl, home, prompt, model, apiKey }) => ({
    files: {
      [join(home, "models.json")]: `${JSON.stringify(
        {
          providers: {
            armstudy: {
              baseUrl: `${baseUrl}/v1`,
              api: "openai-completions",
              apiKey: "ARMSTUDY_MODEL_KEY",
              compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
              models: [{ id: model, reasoning: false, contextWindow: 128000, maxTokens: 4096 }],
            },
          },
        },
        null,
        2,
      )}\n`,
    },
    env: { PI_CODING_AGENT_DIR: home, HOME: home, PI_OFFLINE: "1", ARMSTUDY_MODEL_KEY: apiKey },
    args: ["--provider", "armstudy", "--model", model, "--mode", "json", "-p", prompt],
    sessionDir: join(home, "sessions"),
  }),
};
