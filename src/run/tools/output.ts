/**
 * Output capping. A long output keeps its head and its tail — where a command prints what it is
 * doing and how it ended — and drops the middle, with a marker that says how much was cut.
 */

export function elisionMarker(elided: number): string {
  return `\n[… ${elided} characters elided …]\n`;
}

/** `text` if it fits in `limit` characters; otherwise its head and tail around a marker. */
export function capMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  const headEnd = half;
  const tailStart = text.length - (limit - half);
  return text.slice(0, headEnd) + elisionMarker(tailStart - headEnd) + text.slice(tailStart);
}

/**
 * Collects a stream's text in bounded memory: the first `limit/2` characters and the last
 * `limit/2`, counting what fell between. `text()` equals `capMiddle(all, limit)`.
 */
export class HeadTailCollector {
  private head = "";
  private tail = "";
  private total = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(limit: number) {
    this.headLimit = Math.floor(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  push(chunk: string): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headLimit) {
      const room = this.headLimit - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.tail = (this.tail + rest).slice(-this.tailLimit);
  }

  text(): string {
    const elided = this.total - this.head.length - this.tail.length;
    return elided > 0 ? this.head + elisionMarker(elided) + this.tail : this.head + this.tail;
  }
}
