// terminal.cast: the run's SSH session as an asciicast v2 recording (the format `asciinema play` and
// asciinema-player read): a header line, then [seconds, "o", text] lines. The agent runs each command
// as its own exec, so the recording shows them the way a person at a prompt would have seen them:
// the login of each level, then prompt, command and output, at the times the run recorded. A marker
// ([seconds, "m", label]) at each level start and each pause lets the player's seek bar jump between them.
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunConfig } from '../../schema/run.ts';
import { plainText, terminalText } from '../../schema/terminal-text.ts';
import { replayAddress } from './replay-scripts.ts';
import { ScreenDecoder } from '../../schema/screen-bytes.ts';

const WIDTH = 120;
const HEIGHT = 36;
/** Pauses longer than this (a person thinking, a slow model) play as this long. */
const IDLE_TIME_LIMIT_S = 2;

/**
 * Terminal text: what the run recorded made safe (colour kept, every other escape shown, not obeyed;
 * see schema/terminal-text.ts), then newlines as CR LF, as a terminal in raw mode expects. The
 * recording's own colours are added around the safe text, never inside what a target wrote.
 */
const crlf = (text: string): string => terminalText(text).replace(/\n/g, '\r\n');
/** A field inside the recording's own coloured line: no colour of its own, so it cannot reset ours. */
const field = (text: string): string => plainText(text);

/** terminal.cast's writer: the header at the first event (its time is the recording's start), then each page's lines. */
export class CastWriter {
  private readonly title: string;
  private readonly host: string;
  private readonly port: number;
  private level: number;
  private start: number | null = null;
  private last = 0;
  // A person's terminal (issue 30) is recorded as its bytes, so vi and more play back as they drew.
  private screen = new ScreenDecoder();
  private lines: string[] = [];

  /** `address`: where the run played (`host:port`, as the manifest gives it); null shows the target's default. */
  constructor(runId: string, config: RunConfig, address: string | null) {
    ({ host: this.host, port: this.port } = replayAddress(config.target, address));
    this.level = config.startLevel;
    this.title = plainText(`bandit-runner ${runId}: ${config.model} on ${config.target}`).replace(/\n/g, ' ');
  }

  /** The recording's lines for `events`, each ending in a newline (the header's before the first). */
  write(events: readonly RunEvent[]): string {
    if (this.start === null && events[0]) this.header(Date.parse(events[0].ts));
    for (const event of events) this.event(event);
    return this.take();
  }

  /** The header, if no event came. */
  end(): string {
    if (this.start === null) this.header(0);
    return this.take();
  }

  private take(): string {
    const text = this.lines.map((line) => `${line}\n`).join('');
    this.lines = [];
    return text;
  }

  private header(start: number): void {
    this.start = start;
    const header = {
      version: 2,
      width: WIDTH,
      height: HEIGHT,
      timestamp: Math.floor(start / 1000),
      idle_time_limit: IDLE_TIME_LIMIT_S,
      title: this.title,
      env: { TERM: 'xterm-256color', SHELL: '/bin/bash' },
    };
    this.lines.push(JSON.stringify(header));
  }

  private line(ts: string, code: 'o' | 'm' | 'r', text: string): void {
    // Times never go backwards, even if two events share a millisecond.
    this.last = Math.max(this.last, (Date.parse(ts) - (this.start ?? 0)) / 1000);
    this.lines.push(JSON.stringify([Number(this.last.toFixed(3)), code, text]));
  }

  private out(ts: string, text: string): void {
    this.line(ts, 'o', text);
  }

  /** A marker's label is the recording's own words; the player shows it as plain text. */
  private mark(ts: string, label: string): void {
    this.line(ts, 'm', label);
  }

  private prompt(): string {
    return `\x1b[1;32mbandit${this.level}@bandit\x1b[0m:\x1b[1;34m~\x1b[0m$ `;
  }

  private event(event: RunEvent): void {
    switch (event.type) {
      case 'level_started':
        this.level = event.level;
        this.out(
          event.ts,
          crlf(`\x1b[2m$ ssh bandit${this.level}@${this.host} -p ${this.port}   # attempt ${event.attempt}\x1b[0m\n`),
        );
        this.mark(event.ts, `level ${this.level}, attempt ${event.attempt}`);
        break;
      case 'command':
        this.out(event.ts, `${this.prompt()}${crlf(event.command)}\r\n`);
        break;
      case 'output': {
        const text = event.stdout + (event.stderr ? `\x1b[31m${field(event.stderr)}\x1b[0m` : '');
        if (text) this.out(event.ts, crlf(text.endsWith('\n') ? text : `${text}\n`));
        break;
      }
      case 'password_found':
        this.out(event.ts, crlf(`\x1b[1;33m# bandit${event.level + 1}'s password: ${field(event.password)}\x1b[0m\n`));
        break;
      case 'user_action_required':
        this.out(
          event.ts,
          crlf(`\x1b[1;35m# paused (${event.reason}): ${field(event.lastError ?? 'the agent asks for help')}\x1b[0m\n`),
        );
        this.mark(event.ts, `paused at level ${event.level}: ${event.reason.replace(/_/g, ' ')}`);
        break;
      case 'user_action_resolved':
        this.out(
          event.ts,
          crlf(`\x1b[1;35m# ${event.action}${event.hint ? ` with a hint: ${field(event.hint)}` : ''}\x1b[0m\n`),
        );
        break;
      case 'message_sent':
        this.out(event.ts, crlf(`\x1b[1;35m# a message to the agent: ${field(event.text)}\x1b[0m\n`));
        break;
      case 'takeover_started':
        this.screen = new ScreenDecoder();
        this.line(event.ts, 'r', `${event.cols}x${event.rows}`);
        this.out(event.ts, crlf(`\x1b[1;35m# ${field(event.by)} took the terminal\x1b[0m\n`));
        this.mark(event.ts, `a person took the terminal at level ${event.level}`);
        break;
      case 'terminal_output': {
        // asciicast v2's resize event, so the player redraws a shrunk screen (level 25's `more`) as it was.
        if (event.cols && event.rows) this.line(event.ts, 'r', `${event.cols}x${event.rows}`);
        const text = this.screen.next(event.data);
        if (text) this.out(event.ts, text);
        break;
      }
      case 'takeover_ended':
        // The person's screen may have left colours, modes or the alternate screen on: reset them first.
        this.out(
          event.ts,
          `\x1b[0m\x1b[?1049l\r\n${crlf(`\x1b[1;35m# the terminal closed (${field(event.reason)})\x1b[0m\n`)}`,
        );
        this.line(event.ts, 'r', `${WIDTH}x${HEIGHT}`);
        break;
      case 'run_complete':
        this.out(event.ts, crlf(`\x1b[1m# run ${event.status}: ${event.levelsSolved} level(s) solved\x1b[0m\n`));
        break;
    }
  }
}

/** The whole recording of `events`. */
export function terminalCast(
  runId: string,
  config: RunConfig,
  events: readonly RunEvent[],
  address: string | null,
): string {
  const writer = new CastWriter(runId, config, address);
  return writer.write(events) + writer.end();
}
