import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NotUtf8Error, decodeUtf8Strict } from "../../../src/run/fs/utf8.ts";

describe("decodeUtf8Strict", () => {
  it("decodes UTF-8 exactly as readFile(file, 'utf8') does, byte-order mark included", () => {
    expect(decodeUtf8Strict(Buffer.from("\uFEFF---\nid: café\n---\n", "utf8"))).toEqual("\uFEFF---\nid: café\n---\n");
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => decodeUtf8Strict(Buffer.from(text, "utf8")) === Buffer.from(text, "utf8").toString("utf8")));
  });

  it("names the first line holding bytes that are not UTF-8", () => {
    const latin1 = Buffer.concat([Buffer.from("title: ok\nbody: fine\n"), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a]), Buffer.from([0xff, 0x0a])]);
    let caught: unknown;
    try {
      decodeUtf8Strict(latin1);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NotUtf8Error);
    expect({ code: (caught as NotUtf8Error).code, line: (caught as NotUtf8Error).line, message: (caught as Error).message }).toEqual({
      code: "NOT_UTF8",
      line: 3,
      message: "line 3: is not UTF-8 text",
    });
  });
});
