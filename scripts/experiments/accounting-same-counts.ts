/**
 * Whether a change to the counter keeps every count (ADR 0235): the accounting bench's sets run
 * with a base tree's request counter and then with this tree's, each call into the counter's
 * public methods (request, reply, message, tools: the outer calls and those the counter makes of
 * itself) recorded in order with its count, and the two sequences compared whole. Prints each
 * side's calls and their sum, and "identical" or the first call that differs; exits 1 on a
 * difference. The runs are the same (same persona, seed and tools), so equal sequences mean the
 * run records' counted tokens are equal too.
 *
 *   git archive main src package.json | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/
 *   node --import tsx scripts/experiments/accounting-same-counts.ts /tmp/base [sets, default 2]
 */
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { TokenCounter } from "../../src/core/tokens.ts";
import type { RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { ROOT, runs } from "../bench/lib/accounting-workload.ts";

const [baseDir, setsArg] = process.argv.slice(2);
if (baseDir === undefined) throw new Error("usage: accounting-same-counts.ts BASE_TREE [sets]");
const sets = Number(setsArg ?? 2);
const METHODS = ["request", "reply", "message", "tools"] as const;

async function countsOf(tree: string): Promise<number[]> {
  const load = async (file: string) => (await import(pathToFileURL(join(tree, file)).href)) as Record<string, unknown>;
  const Text = (await load("src/core/tokens.ts"))["TokenCounter"] as typeof TokenCounter;
  const Request = (await load("src/run/agent-tokens.ts"))["RequestTokenCounter"] as typeof RequestTokenCounter;
  const counter = new Request(new Text());
  const seen: number[] = [];
  const methods = counter as unknown as Record<string, (...args: unknown[]) => number>;
  for (const name of METHODS) {
    const own = (methods[name] as (...args: unknown[]) => number).bind(counter);
    methods[name] = (...args: unknown[]) => {
      const tokens = own(...args);
      seen.push(tokens);
      return tokens;
    };
  }
  for (let set = 0; set < sets; set += 1) await runs(counter, counter);
  return seen;
}

const sides = [resolve(baseDir), ROOT];
const counts: number[][] = [];
for (const tree of sides) {
  const seen = await countsOf(tree);
  counts.push(seen);
  console.log(`${tree}: ${seen.length} calls, ${seen.reduce((sum, n) => sum + n, 0)} tokens in all`);
}
const [a, b] = counts as [number[], number[]];
const first = a.findIndex((n, i) => n !== b[i]);
if (first < 0 && a.length === b.length) console.log("identical");
else {
  console.log(`different: call ${first < 0 ? Math.min(a.length, b.length) : first} (base ${a[first]}, this tree ${b[first]}); ${a.length} against ${b.length} calls`);
  process.exitCode = 1;
}
