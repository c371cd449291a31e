#!/usr/bin/env node
// Runs the TypeScript CLI, so a checkout needs no build step: from its cached build when every source still matches
// it (built again, first, after a source changes: bin/cli-build.js, docs/decisions/0238), else from the sources
// through tsx. ARMSTUDY_FROM_SOURCES=1 always runs the sources (stack traces then name their lines).
import { builtCli } from "./cli-build.js";

const built = process.env.ARMSTUDY_FROM_SOURCES === "1" ? null : await builtCli();
let main;
if (built !== null) {
  process.setSourceMapsEnabled(true);
  ({ main } = await import(built));
}
else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
