/** Temp arm folders and git repos for loader tests: real files, real git, no mocks. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder (removed after the test), with `files` written into it. */
export function tempTree(files: Record<string, string> = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "armstudy-arms-")));
  made.push(dir);
  writeTree(dir, files);
  return dir;
}

export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=armstudy test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A section file's text. */
export function section(id: string, order: number, body: string, extra = ""): string {
  return `---\nid: ${id}\norder: ${order}\n${extra}---\n${body}\n`;
}
