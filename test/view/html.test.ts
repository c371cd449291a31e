import fc from "fast-check";
import { inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodePayload, escapeHtml, pageHtml, payloadId, scriptJson } from "../../src/view/html.ts";
import type { PageIndex, RunPayload } from "../../src/view/page/data.ts";

const INDEX: PageIndex = { schema: "armstudy.view/1", kind: "session", sandbox: null, title: "</title><script>x</script>", description: "", testDouble: false, checks: [], arms: [], glance: [], runs: [], warnings: [] };
const PAYLOAD: RunPayload = { events: [{ t: 0, type: "assistant.text", text: "</script><!-- \u2028", final: true }], warnings: [], acceptance: [], patch: null, subagents: [] };

async function page(): Promise<string> {
  async function* one() {
    yield { key: "session/0", payload: PAYLOAD };
  }
  const parts: string[] = [];
  for await (const part of pageHtml(INDEX, one(), { script: 'console.log("</script>")', style: "p{} </style>" })) parts.push(part);
  return parts.join("");
}

describe("the page's HTML", () => {
  it("keeps any text inside its script element and gives it back unchanged (fuzz)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const json = scriptJson({ text });
        expect(/[<>&\u2028\u2029]/.test(json)).toEqual(false);
        expect(JSON.parse(json)).toEqual({ text });
      }),
    );
  });

  it("stores a payload as deflated base64 that inflates back to the same JSON", () => {
    const encoded = encodePayload(PAYLOAD);
    expect(/^[A-Za-z0-9+/=]+$/.test(encoded)).toEqual(true);
    expect(JSON.parse(inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8"))).toEqual(PAYLOAD);
    expect(payloadId("a/1")).toEqual("armstudy-run-612f31");
  });

  it("lets no title, style or script text end its element early", async () => {
    const html = await page();
    expect(html.match(/<\/script>/g)?.length).toEqual(3);
    expect(html.match(/<\/style>/g)?.length).toEqual(1);
    expect(html.match(/<\/title>/g)?.length).toEqual(1);
    expect(html.includes(`<title>${escapeHtml(INDEX.title)}</title>`)).toEqual(true);
    expect(html.includes("default-src 'none'")).toEqual(true);
  });
});
