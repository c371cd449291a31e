/**
 * The accounting bench's measurement helpers (ADR 0174): the counter's functions as a profile names
 * them, the accounting's modules by their imports, and the distribution-free shift between
 * two sets of samples.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Runtime } from "node:inspector";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { either, type FrameTest } from "../../scripts/bench/lib/accounting-code.ts";
import { accountingModules, inModules, readImports, valueImports } from "../../scripts/bench/lib/accounting-modules.ts";
import { functionKeys, isOneOf, methodsOf } from "../../scripts/bench/lib/counter-functions.ts";
import { mannWhitneyNull, shiftInterval, toNoSampling } from "../../scripts/bench/lib/shift-interval.ts";
import { threadCpu, threadSpan } from "../../scripts/bench/lib/thread-cpu.ts";
import { profileShare } from "../../scripts/bench/lib/profile-share.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";

describe("the counter's functions", () => {
  class Base {
    constructor(readonly offset: number) {}
    add(a: number): number {
      return a + this.offset + this.helper();
    }
    helper(): number {
      return 0;
    }
    get value(): number {
      return this.offset;
    }
  }
  class Child extends Base {
    override helper(): number {
      return 100;
    }
  }
  const outside = (): number => 1;

  it("are every method, accessor and constructor up the prototype chain, overridden ones too", () => {
    const getter = (Object.getOwnPropertyDescriptor(Base.prototype, "value") as PropertyDescriptor).get;
    expect(new Set(methodsOf([Child]))).toEqual(new Set([Child, Child.prototype.helper, Base, Base.prototype.add, Base.prototype.helper, getter]));
  });

  it("are found in a profile by where V8 says each starts", async () => {
    const session = new Session();
    session.connect();
    try {
      const keys = await functionKeys(session, methodsOf([Child, RequestTokenCounter]));
      const [add, helper] = [...(await functionKeys(session, [Base.prototype.add])), ...(await functionKeys(session, [outside]))];
      expect([keys.size, keys.has(add as string), keys.has(helper as string)]).toEqual([methodsOf([Child, RequestTokenCounter]).length, true, false]);
      // A profile of calls into the counter names their frames as [[FunctionLocation]] does.
      // Sampled until a sample lands in `request` (a bound on tries, not on time).
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 50 });
      const text = "Read src/a.ts and fix the bug; then run the tests and report. ".repeat(40);
      let frames: Runtime.CallFrame[] = [];
      for (let attempt = 0; attempt < 200 && !frames.some((frame) => frame.functionName === "request"); attempt += 1) {
        await session.post("Profiler.start");
        const counter = new RequestTokenCounter(new TokenCounter());
        for (let i = 0; i < 50; i += 1) counter.request({ messages: [{ role: "user", content: `${i} ${text}` }], tools: [] });
        frames = (await session.post("Profiler.stop")).profile.nodes.map((node) => node.callFrame);
      }
      const inCounter = isOneOf(keys);
      const request = frames.filter((frame) => frame.functionName === "request");
      expect(request.length).toBeGreaterThan(0);
      expect(request.map((frame) => [/agent-tokens\.ts$/.test(frame.url), inCounter(frame)])).toEqual(request.map(() => [true, true]));
      // This file's frames (the test's own functions) are not the counter's.
      const mine = frames.filter((frame) => /accounting-measurement\.test\.ts$/.test(frame.url));
      expect(mine.map(inCounter)).toEqual(mine.map(() => false));
    } finally {
      session.disconnect();
    }
  });
});

describe("the accounting's modules", () => {
  it("reads value imports, not type-only ones", () => {
    const source = [
      `import type { Message } from "../core/model.ts";`,
      `import { processTokenCounter, TokenCounter } from "../core/tokens.ts";`,
      `import {\n  a,\n  type B,\n} from "./multi-line.ts";`,
      `export { MAX } from "./tokens/o200k.ts";`,
      `export type { Shape } from "./types.ts";`,
      `import "./side-effect.ts";`,
      `const later = await import("./lazy.ts");`,
      `export const from = "not an import";`,
      `import { hash } from "node:crypto";`,
    ].join("\n");
    expect(valueImports(source)).toEqual(["../core/tokens.ts", "./multi-line.ts", "./tokens/o200k.ts", "./side-effect.ts", "node:crypto", "./lazy.ts"]);
  });

  it("are the seeds and, to a fixed point, what only they import", () => {
    const imports = new Map<string, string[]>([
      ["run/agent.ts", ["run/agent-tokens.ts", "run/history.ts", "core/tokens.ts"]],
      ["run/agent-tokens.ts", ["core/tokens.ts", "run/same-json.ts", "run/rings.ts", "run/history.ts"]],
      ["run/rings.ts", ["run/ring-slot.ts"]],
      ["run/ring-slot.ts", []],
      ["run/history.ts", []],
      ["run/same-json.ts", []],
      ["core/tokens.ts", ["core/tokens/o200k.ts", "core/hash.ts"]],
      ["core/tokens/o200k.ts", []],
      ["core/hash.ts", []],
      ["run/record.ts", ["core/hash.ts"]],
      ["core/tokens/unused.ts", []],
    ]);
    expect([...accountingModules(imports)].sort()).toEqual(["core/tokens.ts", "core/tokens/o200k.ts", "core/tokens/unused.ts", "run/agent-tokens.ts", "run/ring-slot.ts", "run/rings.ts", "run/same-json.ts"]);
  });

  it("on this checkout hold every file ADR 0131 named and none the loop imports for itself", () => {
    const modules = accountingModules(readImports(join(import.meta.dirname, "../../src")));
    for (const path of ["run/agent-tokens.ts", "run/same-json.ts", "core/tokens.ts", "core/tokens/o200k.ts", "core/tokens/text-cache.ts"]) expect(modules.has(path)).toBe(true);
    for (const path of ["run/agent.ts", "run/history.ts", "run/models/scripted.ts", "core/model.ts"]) expect(modules.has(path)).toBe(false);
  });

  it("match a profile frame by its url's path under src/", () => {
    const test = inModules(new Set(["run/agent-tokens.ts", "core/tokens/o200k.ts"]));
    const frame = (url: string) => ({ functionName: "f", url, scriptId: "1", lineNumber: 0, columnNumber: 0 });
    expect(["file:///w/src/run/agent-tokens.ts", "file:///w/src/core/tokens/o200k.ts", "file:///w/src/run/agent.ts", "file:///w/src/core/tokens.ts", "", "node:internal/x"].map((url) => test(frame(url)))).toEqual([true, true, false, false, false, false]);
    const named: FrameTest = (f) => f.functionName === "counted";
    expect([either(named, test)({ ...frame("file:///w/src/run/agent.ts"), functionName: "counted" }), either(named, test)(frame("file:///w/src/run/agent.ts")), either(named, test)(frame("file:///w/src/run/agent-tokens.ts"))]).toEqual([true, false, true]);
  });
});

/** P(U = u) by listing every ordering of m a's and n b's. */
function bruteNull(m: number, n: number): number[] {
  const counts = new Array<number>(m * n + 1).fill(0);
  let total = 0;
  for (let mask = 0; mask < 2 ** (m + n); mask += 1) {
    const bits = mask.toString(2).padStart(m + n, "0");
    if ([...bits].filter((bit) => bit === "1").length !== m) continue;
    // "1" is an a: count the b's after it.
    let u = 0;
    for (let i = 0; i < bits.length; i += 1) if (bits[i] === "1") u += [...bits.slice(i + 1)].filter((bit) => bit === "0").length;
    counts[u] = (counts[u] as number) + 1;
    total += 1;
  }
  return counts.map((c) => c / total);
}

describe("shiftInterval", () => {
  it("has the exact Mann–Whitney null distribution", () => {
    for (const [m, n] of [[1, 1], [2, 3], [3, 2], [4, 4], [5, 7], [7, 5]] as const) {
      expect(mannWhitneyNull(m, n).map((p) => p.toFixed(12))).toEqual(bruteNull(m, n).map((p) => p.toFixed(12)));
    }
  });

  it("takes the c-th smallest and largest of the differences, c from the null distribution", () => {
    // 7 and 21 samples: P(U ≤ 29) = 0.0226, P(U ≤ 30) = 0.0265 by the distribution (so c = 30).
    const a = Array.from({ length: 7 }, (_, i) => 10 + i);
    const b = Array.from({ length: 21 }, (_, i) => i / 2);
    const differences = a.flatMap((x) => b.map((y) => x - y)).sort((x, y) => x - y);
    const p = mannWhitneyNull(7, 21);
    let c = 0;
    let below = 0;
    while (below + (p[c] as number) <= 0.025) below += p[c++] as number;
    expect(shiftInterval(a, b)).toEqual({ low: differences[c - 1], shift: (differences[73] as number + (differences[72] as number)) / 2, high: differences[147 - c], coverage: 1 - 2 * below });
    expect(c).toBeGreaterThan(1);
  });

  it("moves with a shift of either side and holds its estimate, for any samples", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 4, maxLength: 25 }), fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 4, maxLength: 25 }), fc.integer({ min: -500, max: 500 }), (a, b, by) => {
        const base = shiftInterval(a, b);
        const moved = shiftInterval(a.map((x) => x + by), b);
        expect(base.low).toBeLessThanOrEqual(base.shift);
        expect(base.shift).toBeLessThanOrEqual(base.high);
        expect(base.coverage).toBeGreaterThanOrEqual(0.95);
        expect(moved).toEqual({ low: base.low + by, shift: base.shift + by, high: base.high + by, coverage: base.coverage });
      }),
    );
  });

  it("spans every difference when there are too few samples for the level", () => {
    expect(shiftInterval([1, 2], [0])).toEqual({ low: 1, shift: 1.5, high: 2, coverage: 1 });
  });
});

describe("thread CPU", () => {
  it("splits the CPU between two readings into the main thread's, the others' and the left-out ones'", () => {
    const before = new Map([
      [1, { comm: "node", ns: 100 }],
      [2, { comm: "v8:ProfEvntProc", ns: 50 }],
      [3, { comm: "libuv-worker", ns: 10 }],
      [9, { comm: "ended", ns: 5 }],
    ]);
    const after = new Map([
      [1, { comm: "node", ns: 400 }],
      [2, { comm: "v8:ProfEvntProc", ns: 250 }],
      [3, { comm: "libuv-worker", ns: 30 }],
      [4, { comm: "started", ns: 7 }],
    ]);
    expect(threadSpan(before, after, 1, (comm) => comm.startsWith("v8:Prof"))).toEqual({ main: 300, others: 27, leftOut: 200 });
  });

  it("reads this process's threads, the main one among them, with CPU that only grows", () => {
    const before = threadCpu();
    let x = 0;
    for (let i = 0; i < 1e5; i += 1) x += Math.sqrt(i);
    const after = threadCpu();
    expect([x > 0, before.has(process.pid), after.has(process.pid), [...after].every(([tid, t]) => t.ns >= (before.get(tid)?.ns ?? 0))]).toEqual([true, true, true, true]);
  });
});

describe("toNoSampling", () => {
  it("goes back along the line through the two readings to no samples", () => {
    // 2.0 % at 1,000 samples a set, 2.3 % at 2,500: 0.2 points a thousand, 1.8 % at none.
    expect([toNoSampling(2, 0.3, 1000, 2500), toNoSampling(2, -0.3, 1000, 2500), toNoSampling(2, 0, 1000, 2500)].map((x) => x.toFixed(6))).toEqual(["1.800000", "2.200000", "2.000000"]);
    expect(() => toNoSampling(2, 0.3, 1000, 1000)).toThrow(/finer rate/);
  });
});

describe("profileShare with a frame test", () => {
  it("counts the samples whose stack holds a frame the test takes, as a url pattern would", () => {
    const frame = (functionName: string, url: string, columnNumber = 0) => ({ functionName, url, scriptId: "7", lineNumber: 1, columnNumber });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("(root)", ""), children: [2, 5] },
        { id: 2, callFrame: frame("runAgentLoop", "file:///x/src/run/agent.ts"), children: [3, 6] },
        { id: 3, callFrame: frame("request", "file:///x/src/run/agent-tokens.ts", 1622), children: [4] },
        { id: 4, callFrame: frame("stringify", ""), children: [] },
        { id: 5, callFrame: frame("(idle)", ""), children: [] },
        // Inlined away: the text cache's frame straight under the loop.
        { id: 6, callFrame: frame("get", "file:///x/src/core/tokens/text-cache.ts"), children: [] },
      ],
      startTime: 0,
      endTime: 10,
      samples: [2, 3, 4, 5, 6, 6, 2],
      timeDeltas: [1, 1, 1, 1, 1, 1, 1],
    };
    const byMethod = isOneOf(new Set(["7:1:1622"]));
    const byModule = inModules(new Set(["run/agent-tokens.ts", "core/tokens/text-cache.ts"]));
    expect([profileShare(profile, byMethod), profileShare(profile, byModule), profileShare(profile, either(byMethod, byModule)), profileShare(profile, /agent-tokens/)]).toEqual([
      { inFiles: 2, busy: 6 },
      { inFiles: 4, busy: 6 },
      { inFiles: 4, busy: 6 },
      { inFiles: 2, busy: 6 },
    ]);
  });
});
