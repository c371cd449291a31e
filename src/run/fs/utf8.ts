/**
 * Strict UTF-8 decoding for files a person writes (arm sections, intent files, replies). Node's
 * `readFile(file, "utf8")` turns invalid bytes into U+FFFD silently, which would change a prompt or
 * rewrite a file the person saved in another encoding; this refuses instead and says on which line.
 */
// ignoreBOM keeps a byte-order mark in the text, as readFile(file, "utf8") does.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export class NotUtf8Error extends Error {
  readonly code = "NOT_UTF8";
  constructor(readonly line: number) {
    super(`line ${line}: is not UTF-8 text`);
    this.name = "NotUtf8Error";
  }
}

/** The text of `bytes`, or a NotUtf8Error naming the first line (1-based) that is not valid UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i += 1) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          decoder.decode(bytes.subarray(start, i));
        } catch {
          throw new NotUtf8Error(line);
        }
        line += 1;
        start = i + 1;
      }
    }
    throw new NotUtf8Error(line - 1);
  }
}
