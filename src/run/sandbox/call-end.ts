/**
 * Finding the end of one call in a launcher's output stream: everything before the call's marker
 * is the call's output, passed on as it arrives; the marker and the line it ends are the launcher's
 * (on stdout, the exit code). The last `marker.length - 1` characters are held back until more
 * arrives, since a marker may be split across chunks; `flush` gives them up when the stream ends
 * without one (the sandbox was killed).
 */
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
      const keep = Math.min(text.length, this.marker.length - 1);
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
