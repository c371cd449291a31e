/**
 * The accounting bench's measurement helpers (ADR 0174): the counter's call tree made visible in
 * a profile (entered), what counts as accounting code, and the distribution-free shift between
 * two sets of samples.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACCOUNTING, ACCOUNTING_FILES } from "../../scripts/bench/lib/accounting-code.ts";
import { ENTRY_FILE, entered } from "../../scripts/bench/lib/counter-entry.ts";
import { mannWhitneyNull, shiftInterval } from "../../scripts/bench/lib/shift-interval.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";

describe("entered", () => {
  class Base {
    calls: string[] = [];
    constructor(readonly offset: number) {}
    add(a: number, b?: number): number {
      this.calls.push(`add ${a} ${b}`);
      return a + (b ?? 0) + this.offset + this.helper();
    }
    protected helper(): number {
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
    fail(): never {
      throw new Error("from inside");
    }
  }

  it("behaves as the class it enters, nearest definitions first, accessors untouched", () => {
    const counter = new (entered(Child))(1);
    expect([counter.add(2), counter.add(2, 3), counter.value, counter instanceof Child, counter.calls]).toEqual([103, 106, 1, true, ["add 2 undefined", "add 2 3"]]);
  });

  it("puts a frame of its own file on the stack of every method call, inherited ones too", () => {
    const counter = new (entered(Child))(0);
    let stack = "";
    try {
      counter.fail();
    } catch (error) {
      stack = (error as Error).stack ?? "";
    }
    const frames = stack.split("\n").slice(1);
    // The method's own frame, then the entry's (a profile's url is the file's, as a stack's is).
    expect(frames.slice(0, 2).map((line) => ENTRY_FILE.test(line.replace(/:\d+:\d+\)?$/, "")))).toEqual([false, true]);
    const plain = new Child(0);
    try {
      plain.fail();
    } catch (error) {
      expect(((error as Error).stack ?? "").split("\n").some((line) => ENTRY_FILE.test(line.replace(/:\d+:\d+\)?$/, "")))).toBe(false);
    }
  });

  it("counts a request counter's requests exactly as the plain one does", () => {
    const request = { messages: [{ role: "system" as const, content: "You are careful." }, { role: "user" as const, content: "Read src/a.ts and fix the bug." }], tools: [] };
    const reply = { text: "Done.", toolCalls: [{ id: "1", name: "read_file", arguments: { path: "src/a.ts" } }] };
    const plain = new RequestTokenCounter(new TokenCounter());
    const counter = new (entered(RequestTokenCounter))(new TokenCounter());
    expect([counter.request(request), counter.reply(reply), counter.message(request.messages[1] as never)]).toEqual([plain.request(request), plain.reply(reply), plain.message(request.messages[1] as never)]);
  });
});

describe("the accounting's code", () => {
  it("is the request counter, its JSON comparison, all of src/core/tokens, and any call into an entered counter", () => {
    const urls = [
      "file:///w/src/run/agent-tokens.ts",
      "file:///w/src/run/same-json.ts",
      "file:///w/src/core/tokens.ts",
      "file:///w/src/core/tokens/o200k.ts",
      "file:///w/src/core/tokens/new-file-13f-adds.ts",
      "file:///w/scripts/bench/lib/counter-entry.ts",
      "file:///w/src/run/agent.ts",
      "file:///w/src/run/history.ts",
      "file:///w/src/run/models/scripted.ts",
      "file:///w/scripts/bench/lib/counter-entry.ts.map",
      "",
    ];
    expect(urls.map((url) => [ACCOUNTING.test(url), ACCOUNTING_FILES.test(url)])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [true, true],
      [true, true],
      [true, false],
      [false, false],
      [false, false],
      [false, false],
      [false, false],
      [false, false],
    ]);
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
