// The model's text while a call is still being written, sent as `live` lines: coalesced (at most one
// line per interval), and redacted on the whole text so far, never piece by piece. The last
// characters are held back until the call's text is complete when they might be the start of a
// secret (the end of the text is the start of one) that the next piece finishes; everything
// already sent can no longer change.
import type { LlmStage, ProxyLine } from '../schema/protocol.ts';
import type { Redactor } from './redactor.ts';

type LiveLine = Extract<ProxyLine, { type: 'live' }>;

export class LiveThinking {
  private readonly send: (line: LiveLine) => void;
  private readonly redactor: Redactor;
  private readonly intervalMs: number;
  private current: { level: number; stage: LlmStage; raw: string; sent: number } | null = null;
  private lastSentAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(send: (line: LiveLine) => void, redactor: Redactor, intervalMs: number) {
    this.send = send;
    this.redactor = redactor;
    this.intervalMs = intervalMs;
  }

  /** A piece of a call's text. The first piece goes out at once; later ones at most once an interval. */
  push(level: number, stage: LlmStage, text: string): void {
    if (!text) return;
    if (this.current && (this.current.level !== level || this.current.stage !== stage)) this.end();
    this.current ??= { level, stage, raw: '', sent: 0 };
    this.current.raw += text;
    const wait = this.lastSentAt + this.intervalMs - Date.now();
    if (wait <= 0) this.flush(false);
    else this.timer ??= setTimeout(() => this.flush(false), wait);
  }

  /** The call's text is complete: sends what was held back and starts afresh. */
  end(): void {
    if (!this.current) return;
    this.flush(true);
    this.current = null;
  }

  private flush(complete: boolean): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const call = this.current;
    if (!call) return;
    const redacted = this.redactor.text(call.raw);
    const upTo = complete ? redacted.length : Math.max(call.sent, redacted.length - this.redactor.unfinished(redacted));
    if (upTo <= call.sent) return;
    this.send({ type: 'live', level: call.level, stage: call.stage, text: redacted.slice(call.sent, upTo) });
    call.sent = upTo;
    this.lastSentAt = Date.now();
  }
}
