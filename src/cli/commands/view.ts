/**
 * `armstudy view DIR` writes DIR/report.html, the study's viewer page (works from file://);
 * `armstudy view --serve [ROOT] [--port N]` serves every study and session record under ROOT on
 * 127.0.0.1 with a listing page. Logic: src/view.
 */
import { relative, resolve } from "node:path";
import { ResultsError } from "../../render/results.ts";
import { buildPageAssets } from "../../view/assets.ts";
import { serveViews } from "../../view/serve.ts";
import { writeStudyView } from "../../view/write.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";

const USAGE = `armstudy view DIR | armstudy view --serve [ROOT] [--port N]

DIR       a study's results folder: writes DIR/report.html (open it from disk; no server needed)
--serve   serve every study folder, run record and session page under ROOT (default .) on 127.0.0.1,
          with a listing page; --port 0 (the default) picks a free port. Stop with Ctrl-C.`;

const command: Command = {
  name: "view",
  summary: "Write a study's report.html viewer page, or serve every study under a folder on 127.0.0.1",
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs({ args, allowPositionals: true, strict: true, options: { serve: { type: "boolean" }, port: { type: "string" } } }, USAGE);
    if (positionals.length > 1) throw new UsageError(`name one folder, got ${positionals.length}\nusage: ${USAGE}`);
    if (values.serve === true) {
      const port = values.port === undefined ? 0 : Number(values.port);
      if (!/^\d+$/.test(values.port ?? "0") || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, got "${values.port}"`);
      const server = await serveViews({ root: resolve(io.cwd, positionals[0] ?? "."), port, assets: await buildPageAssets() });
      io.stdout(`serving ${server.root} at ${server.url} (Ctrl-C stops)\n`);
      await new Promise<void>((done) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          void server.close().then(done);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      return 0;
    }
    if (values.port !== undefined) throw new UsageError("--port goes with --serve");
    if (positionals.length === 0) throw new UsageError(`name a study's results folder\nusage: ${USAGE}`);
    const dir = resolve(io.cwd, positionals[0] as string);
    try {
      const path = await writeStudyView(dir);
      const rel = relative(io.cwd, path);
      io.stdout(`view: ${rel.startsWith("..") ? path : rel}\n`);
      return 0;
    } catch (error) {
      if (error instanceof ResultsError) throw new InputError(error.message.split(dir).join(positionals[0] as string), positionals[0]);
      throw error;
    }
  },
};

export default command;
