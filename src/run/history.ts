/**
 * A run's conversation as the agent loop keeps it (ADR 0169). Messages are only appended, except
 * through `rewrite` (compaction, a checkpoint's handoff), which starts a new epoch. A request's
 * messages come from `snapshot()`, with a mark saying which history and epoch they are: two
 * snapshots with the same mark differ only by messages appended to the later one, so the request
 * counter need not compare the earlier messages one by one. Any doubt (another mark, no mark)
 * and the counter compares them all.
 */
import type { Message } from "../core/model.ts";
import type { HistoryMark } from "./agent-tokens.ts";

export class History {
  private readonly list: Message[];
  private mark: HistoryMark;

  constructor(first: readonly Message[] = []) {
    this.list = [...first];
    this.mark = { history: this, epoch: 0 };
  }

  /** The messages now (read-only: a change goes through push or rewrite). */
  get messages(): readonly Message[] {
    return this.list;
  }

  push(message: Message): void {
    this.list.push(message);
  }

  /** Any change other than appending: the next request's messages are compared in full. */
  rewrite(change: (messages: Message[]) => void): void {
    this.mark = { history: this, epoch: this.mark.epoch + 1 };
    change(this.list);
  }

  /** A copy of the messages (the request's own array) and the mark that vouches how it relates to earlier ones. */
  snapshot(): { messages: Message[]; mark: HistoryMark } {
    return { messages: [...this.list], mark: this.mark };
  }
}
