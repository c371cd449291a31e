/**
 * `armstudy analyze FILE|DIR... | --discover`: per-run metrics of recorded sessions of real agents
 * (Codex, Claude Code, pi), the same metrics a study run gets — one file in detail, or a whole
 * history as one row per session, grouped into cohorts with `--by`. Logic: src/sessions
 * (importers, discovery), src/measure (metrics, rows, cohorts, the worker pool) and
 * src/render/session-report.ts.
 */
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { availableParallelism, homedir } from "node:os";
import { join, resolve } from "node:path";
import { TokenCounter } from "../../core/tokens.ts";
import { COHORT_KEYS, type CohortKey, compareCohorts, renderCohortTable } from "../../measure/cohorts.ts";
import { analyzeSessionFile, renderAnalysisTable, type SessionAnalysis } from "../../measure/session-analysis.ts";
import { analyzeFiles } from "../../measure/session-pool.ts";
import { csvHeader, csvLine, filterOut, parseDateBound, renderRowsTable, type RowFilter, type SessionRow, sessionRow } from "../../measure/session-rows.ts";
import { seededRng } from "../../measure/stats.ts";
import { discoverRoots, walkSessionFiles } from "../../sessions/discover.ts";
import { SESSION_FORMATS, type SessionFormat } from "../../sessions/format.ts";
import { SessionFormatError } from "../../sessions/import.ts";
import { parseCommandArgs, prepareOutputFile } from "../args.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

/** Viewer pages a history report writes with --pages: enough to read the sessions it lists first, bounded in time and disk. */
const MAX_SESSION_PAGES = 100;

const USAGE = `armstudy analyze FILE|DIR... [--discover] [--format auto|${SESSION_FORMATS.join("|")}]
                 [--since DATE] [--until DATE] [--project TEXT] [--by ${COHORT_KEYS.join("|")}]
                 [--json | --csv] [--report DIR [--pages]] [--workers N] [--seed N] [--record OUT.jsonl] [--html OUT.html]

Reads session logs (streamed) and prints their metrics. FILE: one session; DIR: every *.jsonl /
*.ndjson / *.jsonl.zst under it (zstd read as it streams; Claude Code sub-agent files are read with
their parent). --discover reads the
usual roots ($CODEX_HOME or ~/.codex: sessions, archived_sessions; $CLAUDE_CONFIG_DIR or ~/.claude:
projects; $PI_CODING_AGENT_DIR or ~/.pi/agent: sessions) and says which it read.
One session prints its metric table; several print one row per session and a total. --json prints
an array (always, one element per session); --csv one line per session. --since / --until take
YYYY-MM-DD (UTC; --until includes the day) or an ISO time; --project keeps sessions whose working
folder contains TEXT. --by groups the sessions into cohorts and compares them (Wilson and bootstrap
95% intervals, Fisher's exact p against the largest group), and writes a markdown report with
charts to --report DIR (default ./armstudy-analyze); with --pages the report also writes a viewer page
for each of its first ${MAX_SESSION_PAGES} sessions (DIR/sessions/N.html) and links them. --workers spreads files over threads (default:
the cores, for folders; 1 for files). --record writes one session's normalised run record;
--html one session's viewer page (its trajectory as a timeline, sub-agents nested).
Exit 0; 2 when a named FILE is missing, empty or not a session (files found in a folder that are
not sessions are counted and skipped).`;

const MAX_WARNINGS_SHOWN = 10;

interface Options {
  format: SessionFormat | "auto";
  filter: RowFilter;
  by: CohortKey | null;
  output: "table" | "json" | "csv";
  report: string | null;
  pages: boolean;
  workers: number;
  seed: number;
}

function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} ${JSON.stringify(text)} is not a whole number; use, for example, ${flag} 2`);
  return Number(text);
}

function dateFlag(flag: string, text: string | undefined, inclusive: boolean): number | undefined {
  if (text === undefined) return undefined;
  const t = parseDateBound(text, inclusive);
  if (t === null) throw new UsageError(`${flag} ${JSON.stringify(text)} is not a date; use YYYY-MM-DD (UTC) or an ISO time such as 2026-11-29T20:00:00Z`);
  return t;
}

const command: Command = {
  name: "analyze",
  summary: "Measure recorded sessions of real agents (Codex, Claude Code, pi): one file, folders, or the whole history by cohort",
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      {
        args,
        allowPositionals: true,
        strict: true,
        options: {
          format: { type: "string", default: "auto" },
          json: { type: "boolean", default: false },
          csv: { type: "boolean", default: false },
          record: { type: "string" },
          html: { type: "string" },
          discover: { type: "boolean", default: false },
          since: { type: "string" },
          until: { type: "string" },
          project: { type: "string" },
          by: { type: "string" },
          report: { type: "string" },
          pages: { type: "boolean", default: false },
          workers: { type: "string" },
          seed: { type: "string" },
        },
      },
      USAGE,
    );
    const format = values.format ?? "auto";
    if (format !== "auto" && !(SESSION_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`--format ${JSON.stringify(format)} is not a format armstudy reads; use one of auto, ${SESSION_FORMATS.join(", ")}`);
    }
    if (positionals.length === 0 && !values.discover) throw new UsageError(`name at least one session FILE or DIR, or use --discover\nusage: ${USAGE}`);
    if (values.json && values.csv) throw new UsageError("--json and --csv are two outputs; choose one");
    if (values.by !== undefined && !(COHORT_KEYS as readonly string[]).includes(values.by)) {
      throw new UsageError(`--by ${JSON.stringify(values.by)} is not a cohort; use one of ${COHORT_KEYS.join(", ")}`);
    }
    const filter: RowFilter = {};
    const since = dateFlag("--since", values.since, false);
    const until = dateFlag("--until", values.until, true);
    if (since !== undefined) filter.since = since;
    if (until !== undefined) filter.until = until;
    if (values.project !== undefined) filter.project = values.project;

    // --html: the session's viewer page, written after the analysis (src/view, loaded only then).
    const html = values.html;
    if (html !== undefined) {
      if (positionals.length !== 1 || values.discover) throw new UsageError(`--html writes one session's page: give exactly one FILE (got ${positionals.length})`);
      if ((await stat(resolve(io.cwd, positionals[0] as string)).catch(() => null))?.isDirectory() === true) {
        throw new UsageError(`--html writes one session's page: ${positionals[0]} is a folder; name one session FILE`);
      }
      await prepareOutputFile("--html", resolve(io.cwd, html));
    }
    const withHtml = async (code: number): Promise<number> => {
      if (html === undefined || code !== 0) return code;
      await (await import("../../view/write-session.ts")).writeSessionView(resolve(io.cwd, positionals[0] as string), resolve(io.cwd, html), format as SessionFormat | "auto");
      io.stderr(`session page written to ${html}\n`);
      return code;
    };

    if (values.record !== undefined) {
      if (positionals.length !== 1 || values.discover) throw new UsageError(`--record writes one run record: give exactly one FILE (got ${positionals.length})`);
      if ((await stat(resolve(io.cwd, positionals[0] as string)).catch(() => null))?.isDirectory() === true) {
        throw new UsageError(`--record writes one run record: ${positionals[0]} is a folder; name one session FILE`);
      }
      return withHtml(await recordOne(positionals[0] as string, format as SessionFormat | "auto", values.record, values.json, io));
    }

    const sources: string[] = [];
    const named = new Set<string>();
    let anyFolder = values.discover;
    for (const p of positionals) {
      const path = resolve(io.cwd, p);
      const info = await stat(path).catch(() => null);
      if (info?.isDirectory() === true) anyFolder = true;
      else named.add(path);
      sources.push(p);
    }
    if (values.discover) {
      const roots = await discoverRoots(io.env, io.env.HOME ?? homedir());
      for (const root of roots) {
        io.stderr(`${root.exists ? "reading" : "not found:"} ${root.client} sessions ${root.exists ? "from " : ""}${root.path} (${root.from === "default" ? "the default" : `$${root.from}`})\n`);
        if (root.exists) sources.push(root.path);
      }
      if (!roots.some((r) => r.exists)) io.stderr("no session roots found; name folders or files instead\n");
    }

    const options: Options = {
      format: format as SessionFormat | "auto",
      filter,
      by: (values.by as CohortKey | undefined) ?? null,
      output: values.json ? "json" : values.csv ? "csv" : "table",
      report: values.report !== undefined ? resolve(io.cwd, values.report) : values.by !== undefined ? resolve(io.cwd, "armstudy-analyze") : null,
      workers: positiveInt("--workers", values.workers, anyFolder ? Math.min(8, availableParallelism()) : 1),
      seed: positiveInt("--seed", values.seed, 1),
      pages: values.pages === true,
    };
    if (options.pages && options.report === null) throw new UsageError("--pages writes viewer pages beside a history report: give --report DIR (or --by)");
    return withHtml(await analyzeMany(sources.map((s) => resolve(io.cwd, s)), sources, named, options, io, [`armstudy analyze`, ...args].join(" ")));
  },
};

/** One session, its normalised record written: the detailed table (or its JSON, an array of one). */
async function recordOne(file: string, format: SessionFormat | "auto", record: string, json: boolean, io: CliIO): Promise<number> {
  const out = resolve(io.cwd, record);
  await prepareOutputFile("--record", out);
  try {
    const analysis = await analyzeSessionFile(resolve(io.cwd, file), { format, counter: new TokenCounter(), recordTo: out });
    reportWarnings({ ...analysis, file }, io);
    io.stdout(json ? `${JSON.stringify([{ ...analysis, file }], null, 2)}\n` : renderAnalysisTable([{ ...analysis, file }]));
    io.stderr(`run record written to ${record}\n`);
    return 0;
  } catch (error) {
    if (fileProblem(error, file, io)) return 2;
    throw error;
  }
}

function reportWarnings(analysis: SessionAnalysis, io: CliIO): void {
  if (analysis.detectedBy !== null) io.stderr(`${analysis.file}: detected ${analysis.format} (${analysis.detectedBy})\n`);
  const shown = analysis.warningMessages.slice(0, MAX_WARNINGS_SHOWN);
  for (const warning of shown) io.stderr(`${analysis.file}: warning: ${warning}\n`);
  if (analysis.warnings > shown.length) io.stderr(`${analysis.file}: … and ${analysis.warnings - shown.length} more warnings (in --json warningMessages, up to 20 per session)\n`);
}

function fileProblem(error: unknown, file: string, io: CliIO): boolean {
  if (error instanceof SessionFormatError) {
    io.stderr(`armstudy analyze: ${error.message}\n`);
    return true;
  }
  if (error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "EISDIR" || error.code === "EACCES")) {
    io.stderr(`armstudy analyze: ${file}: cannot read (${String(error.code)}); check the path\n`);
    return true;
  }
  return false;
}

/** Files from every source in turn, each named FILE as itself and each folder walked. */
async function* allFiles(paths: readonly string[], onSkip: (path: string, code: string) => void): AsyncGenerator<string> {
  for (const path of paths) yield* walkSessionFiles(path, onSkip);
}

async function analyzeMany(paths: string[], shownSources: string[], named: Set<string>, o: Options, io: CliIO, commandLine: string): Promise<number> {
  const rows: SessionRow[] = [];
  const single: SessionAnalysis[] = [];
  const skipped: Record<string, number> = { "files not a session format": 0, "empty files": 0, "unreadable files": 0, "sessions outside the filters": 0 };
  const leftOutBy: Record<string, number> = {};
  let failedNamed = 0;
  const warned = { sessions: 0, warnings: 0 };
  let jsonCount = 0;
  let files = 0;
  const started = Date.now();
  let lastProgress = 0;
  const progress = (final: boolean): void => {
    if (!(io.stderrTTY ?? io.isTTY)) return;
    const now = Date.now();
    if (!final && now - lastProgress < 250) return;
    lastProgress = now;
    const s = Math.max(0.001, (now - started) / 1000);
    io.stderr(`\r${files} files, ${rows.length} sessions, ${(files / s).toFixed(0)} files/s${final ? "\n" : ""}`);
  };
  const onSkip = (path: string, code: string): void => {
    skipped["unreadable files"] = (skipped["unreadable files"] ?? 0) + 1;
    if (named.has(path)) failedNamed += 1;
    io.stderr(`armstudy analyze: ${shownName(path, paths, shownSources)}: cannot read (${code}); check the path\n`);
  };
  // Files whose last change is before --since cannot hold a session that started after it.
  const since = o.filter.since;
  async function* candidates(): AsyncGenerator<string> {
    for await (const file of allFiles(paths, onSkip)) {
      if (since !== undefined && !named.has(file)) {
        const info = await stat(file).catch(() => null);
        if (info !== null && info.mtimeMs < since) {
          skipped["sessions outside the filters"] = (skipped["sessions outside the filters"] ?? 0) + 1;
          leftOutBy["before --since"] = (leftOutBy["before --since"] ?? 0) + 1;
          continue;
        }
      }
      yield file;
    }
  }

  if (o.output === "csv") io.stdout(csvHeader());
  if (o.output === "json" && o.by === null) io.stdout("[");
  for await (const result of analyzeFiles(candidates(), { workers: o.workers, format: o.format, maxWarnings: 20 })) {
    files += 1;
    progress(false);
    const shown = shownName(result.file, paths, shownSources);
    if ("error" in result) {
      const isNamed = named.has(result.file);
      if (isNamed) {
        failedNamed += 1;
        io.stderr(`armstudy analyze: ${result.error.kind === "io" ? `${shown}: cannot read (${result.error.code}); check the path` : result.error.message}\n`);
      }
      const why = result.error.code === "SESSION_EMPTY" ? "empty files" : result.error.kind === "io" ? "unreadable files" : "files not a session format";
      skipped[why] = (skipped[why] ?? 0) + 1;
      continue;
    }
    const analysis: SessionAnalysis = { ...result.analysis, file: shown };
    const row = sessionRow(analysis);
    const out = filterOut(row, o.filter);
    if (out !== null) {
      skipped["sessions outside the filters"] = (skipped["sessions outside the filters"] ?? 0) + 1;
      leftOutBy[out] = (leftOutBy[out] ?? 0) + 1;
      continue;
    }
    if (named.has(result.file)) reportWarnings(analysis, io);
    else if (analysis.warnings > 0) {
      warned.sessions += 1;
      warned.warnings += analysis.warnings;
    }
    rows.push(row);
    if (o.output === "json" && o.by === null) {
      io.stdout(`${jsonCount === 0 ? "\n" : ",\n"}${JSON.stringify(analysis)}`);
      jsonCount += 1;
    } else if (o.output === "csv") io.stdout(csvLine(row));
    else if (single.length < 2) single.push(analysis);
  }
  progress(true);
  if (o.output === "json" && o.by === null) io.stdout(jsonCount === 0 ? "]\n" : "\n]\n");

  const summary = Object.entries(skipped).filter(([, n]) => n > 0).map(([why, n]) => `${n} ${why}${why === "sessions outside the filters" ? ` (${Object.entries(leftOutBy).map(([k, v]) => `${v} ${k}`).join(", ")})` : ""}`);
  if (summary.length > 0 && (paths.length > 1 || named.size < paths.length)) io.stderr(`left out: ${summary.join("; ")}\n`);

  if (warned.sessions > 0) io.stderr(`${warned.sessions} sessions found in folders had importer warnings (${warned.warnings} in all; each one's are in --json warningMessages)\n`);

  if (o.by !== null) {
    const comparison = compareCohorts(rows, o.by, seededRng(o.seed));
    if (o.output === "json") io.stdout(`${JSON.stringify(comparison.cohorts, null, 2)}\n`);
    else if (o.output === "table") io.stdout(renderCohortTable(comparison));
    if (o.report !== null) await writeReport(o.report, rows, comparison, shownSources, skipped, commandLine, io, o.pages ? o.format : null);
  } else if (o.output === "table" && rows.length > 0) {
    io.stdout(rows.length === 1 && single.length === 1 ? renderAnalysisTable(single) : renderRowsTable(rows));
  } else if (o.report !== null && rows.length > 0) {
    await writeReport(o.report, rows, compareCohorts(rows, "client", seededRng(o.seed)), shownSources, skipped, commandLine, io, o.pages ? o.format : null);
  }
  if (rows.length === 0 && o.output === "table" && failedNamed === 0) io.stderr("no sessions to show\n");
  return failedNamed > 0 ? 2 : 0;
}

/** A file as the person named it: relative to the folder they gave, or the path they typed. */
function shownName(file: string, paths: readonly string[], shown: readonly string[]): string {
  for (let i = 0; i < paths.length; i += 1) {
    const root = paths[i] as string;
    if (file === root) return shown[i] as string;
    if (file.startsWith(`${root}/`)) return join(shown[i] as string, file.slice(root.length + 1));
  }
  return file;
}

async function writeReport(
  dir: string,
  rows: SessionRow[],
  comparison: ReturnType<typeof compareCohorts>,
  sources: string[],
  skipped: Record<string, number>,
  commandLine: string,
  io: CliIO,
  pagesFormat: SessionFormat | "auto" | null,
): Promise<void> {
  // Loaded on demand: the table and JSON outputs do not pay for chart.js and the canvas.
  const { renderSessionCharts, renderSessionReport } = await import("../../render/session-report.ts");
  await mkdir(join(dir, "charts"), { recursive: true });
  const charts = renderSessionCharts(comparison);
  for (const chart of charts) await writeFile(join(dir, "charts", chart.name), chart.png);
  const pages = pagesFormat === null ? undefined : await writeSessionPages(dir, rows.slice(0, MAX_SESSION_PAGES), pagesFormat, io);
  const text = renderSessionReport({ rows, comparison, sources, skipped, command: commandLine, ...(pages === undefined ? {} : { pages }) }, charts);
  const temp = join(dir, `report.md.${process.pid}.tmp`);
  await writeFile(temp, text);
  await rename(temp, join(dir, "report.md"));
  await writeFile(join(dir, "cohorts.json"), `${JSON.stringify(comparison, null, 2)}\n`);
  io.stderr(`report written to ${join(dir, "report.md")} (charts in ${join(dir, "charts")})\n`);
}

/** One viewer page per session (src/view), the page script built once: file → its page, relative to the report. */
async function writeSessionPages(dir: string, rows: readonly SessionRow[], format: SessionFormat | "auto", io: CliIO): Promise<Map<string, string>> {
  const [{ buildPageAssets }, { writeSessionView }] = await Promise.all([import("../../view/assets.ts"), import("../../view/write-session.ts")]);
  const assets = await buildPageAssets();
  await mkdir(join(dir, "sessions"), { recursive: true });
  const pages = new Map<string, string>();
  for (const [i, row] of rows.entries()) {
    const page = `sessions/${i + 1}.html`;
    try {
      await writeSessionView(resolve(io.cwd, row.file), join(dir, page), format, assets);
      pages.set(row.file, page);
    } catch (error) {
      // A session that reads as metrics but not as a page keeps its row, unlinked, and says why.
      io.stderr(`${row.file}: no viewer page (${(error as Error).message.split("\n")[0]})\n`);
    }
  }
  return pages;
}

export default command;
