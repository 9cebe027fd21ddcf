// The model's text while a call is still being written, sent as `live` lines: coalesced (at most one
// line per interval), and redacted on the whole text so far, never piece by piece. The last
// characters are held back until the call's text is complete when they might be the start of a
// secret (the end of the text is the start of one) that the next piece finishes; everything
// already sent can no longer change.
import type { LlmStage, ProxyLine } from '../schema/protocol.ts';
import type { Redactor } from './redactor.ts';

type LiveLine = Extract<ProxyLine, { type: 'live' }>;

/** Characters of one call's text sent live at most; a model writing megabytes is shown its start. */
export const LIVE_TEXT_MAX_CHARS = 64 * 1024;

export class LiveThinking {
  private readonly send: (line: LiveLine) => void;
  private readonly redactor: Redactor;
  private readonly intervalMs: number;
  private current: { level: number; stage: LlmStage; raw: string; sent: number; cut: boolean } | null = null;
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
    this.current ??= { level, stage, raw: '', sent: 0, cut: false };
    if (this.current.cut) return;
    const room = LIVE_TEXT_MAX_CHARS - this.current.raw.length;
    if (text.length > room) {
      this.current.raw += `${text.slice(0, room)}\n… [live text stops at ${LIVE_TEXT_MAX_CHARS} characters; the stored thinking follows]`;
      this.current.cut = true;
    } else {
      this.current.raw += text;
    }
    const wait = this.lastSentAt + this.intervalMs - Date.now();
    if (wait <= 0) this.flush({ complete: false });
    else this.timer ??= setTimeout(() => this.flush({ complete: false }), wait);
  }

  /** The call's text is complete: sends what was held back and starts afresh. */
  end(): void {
    if (!this.current) return;
    this.flush({ complete: true });
    this.current = null;
  }

  /** Sends the text not yet sent; `complete` sends it all, else it holds back what may be half a secret. */
  private flush({ complete }: { complete: boolean }): void {
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
