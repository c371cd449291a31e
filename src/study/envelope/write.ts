/** Writes an emitted envelope (YAML, `envelope:` wrapper) for a study run, atomically. */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { renderEnvelopeYaml } from "../../core/envelope/emit.ts";
import type { Envelope } from "../../core/envelope/schema.ts";
import { writeFileAtomic } from "../../run/fs/atomic-write.ts";

export async function writeEnvelopeFile(file: string, envelope: Envelope): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, renderEnvelopeYaml(envelope));
}
