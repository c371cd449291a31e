import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Git worktrees, real processes and tokenizer warm-up make some tests slow on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", "./test/support/closing-line-reporter.ts"],
  },
});
