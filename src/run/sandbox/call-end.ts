/**
 * Finding the end of one call in a launcher's output stream: everything before the call's marker
 * is the call's output, passed on as it arrives; the marker and the line it ends are the launcher's
 * (on stdout, the exit code). A chunk's end that could be the start of a marker split across
 * chunks is held back until more arrives — only that, so chunks keep their place among the other
 * stream's (stdout and stderr interleave as they arrive); `flush` gives it up when the stream ends
 * without a marker (the sandbox was killed).
 */

/** How many characters at the end of `text` are the start of `marker` (never all of it). */
export function markerStartAtEnd(text: string, marker: string): number {
  for (let length = Math.min(text.length, marker.length - 1); length > 0; length -= 1) {
    if (text.endsWith(marker.slice(0, length))) return length;
  }
  return 0;
}
export class CallEndReader {
  private held = "";
  /** The text after the marker up to its newline, once the marker has been read. */
  trailer: string | null = null;

  constructor(
    private readonly marker: string,
    private readonly emit: (text: string) => void,
  ) {}

  get done(): boolean {
    return this.trailer !== null;
  }

  push(chunk: string): void {
    if (this.done) return;
    const text = this.held + chunk;
    const at = text.indexOf(this.marker);
    if (at === -1) {
      const keep = markerStartAtEnd(text, this.marker);
      this.emit(text.slice(0, text.length - keep));
      this.held = text.slice(text.length - keep);
      return;
    }
    this.emit(text.slice(0, at));
    const rest = text.slice(at + this.marker.length);
    const newline = rest.indexOf("\n");
    if (newline === -1) {
      this.held = text.slice(at);
      return;
    }
    this.held = "";
    this.trailer = rest.slice(0, newline);
  }

  /** What was held back, when the stream ended before the marker. */
  flush(): void {
    if (this.done || this.held === "") return;
    this.emit(this.held);
    this.held = "";
  }
}
