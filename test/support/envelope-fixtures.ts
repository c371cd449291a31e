/** The envelope fixtures (fixtures/envelopes): each `<stem>.expected.json` beside the file it describes. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const ENVELOPE_FIXTURES = join(import.meta.dirname, "../../fixtures/envelopes");

export interface Expected {
  description: string;
  plan: string | null;
  checkLedger: boolean;
  exit: number;
  verdict?: unknown;
  error?: string;
}

/** Every fixture with its expectation; `file` is `<stem>.?` when the described file is missing. */
export function envelopeFixtureCases(): Array<{ file: string; expected: Expected }> {
  const names = readdirSync(ENVELOPE_FIXTURES);
  return names
    .filter((name) => name.endsWith(".expected.json"))
    .map((name) => {
      const stem = name.replace(/\.expected\.json$/, "");
      const file = names.find((other) => other !== name && other.startsWith(`${stem}.`)) ?? `${stem}.?`;
      return { file, expected: JSON.parse(readFileSync(join(ENVELOPE_FIXTURES, name), "utf8")) as Expected };
    });
}
