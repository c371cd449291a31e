/**
 * A one-arm study on a one-file fixture with one check, written into a fresh temp folder: the
 * smallest study a test can point a loopback provider at. The caller gives the study file's own
 * lines (runs, model, limits, requests); the folder is pushed onto `temps` for clean-up.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

export function tinyStudy(name: string, lines: readonly string[], temps: string[]): { root: string; file: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), `armstudy-${name}-`));
  temps.push(root);
  mkdirSync(join(root, "fixture"));
  writeFileSync(join(root, "fixture", "README.md"), "# fixture\n");
  writeFileSync(join(root, "handoff.md"), "Say done.\n");
  writeFileSync(join(root, "checks.yaml"), "checks:\n  - id: B1\n    command: test -f README.md\n");
  const file = join(root, `${name}.study.yaml`);
  writeFileSync(file, ["repo: { fixture: ./fixture }", "handoff: ./handoff.md", "checks: ./checks.yaml", `armsDir: ${join(ROOT, "arms")}`, "arms: [ordinary]", ...lines, ""].join("\n"));
  return { root, file, out: join(root, "out") };
}
