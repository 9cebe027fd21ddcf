// One SSH channel seen as a terminal: its size, and a stack of programs that take turns reading it
// (a login shell, `more` started by bandit26's login shell, vi started from more, a shell from vi).
// The program on top gets the keys; when it ends, the one below it resumes; when none is left the
// channel closes. A command may ask for a hidden line (a password) whatever program is on top.
import type { ServerChannel } from 'ssh2';

export interface TerminalApp {
  /** Keys typed while this program is on top. */
  input(text: string): void;
  /** The program above this one ended: redraw, prompt again. */
  resume(): void;
}

export type TerminalSize = { rows: number; cols: number };

/** A password prompt left this long is given up, as if the person pressed Ctrl-C. */
export const PROMPT_LIMIT_MS = 2 * 60_000;

export class Terminal {
  readonly pty: boolean;
  size: TerminalSize;
  private readonly channel: ServerChannel;
  private readonly apps: TerminalApp[] = [];
  private asking: { typed: string; done: (answer: string | null) => void } | undefined;
  private ended = false;
  /** Keys that came before any program read the terminal (typed during login). */
  private early = '';
  /** Keys typed while a program runs a command (hold … release), for whoever reads next. */
  private held: string | undefined;

  constructor(channel: ServerChannel, pty: TerminalSize | undefined) {
    this.channel = channel;
    this.pty = pty !== undefined;
    // A terminal that reports no size is taken to be the classic 80×24.
    this.size = { rows: pty?.rows || 24, cols: pty?.cols || 80 };
    channel.on('data', (data: Buffer) => this.feed(data.toString('utf8')));
    // Without a pty, the end of stdin reaches the program as Ctrl-D would, after what came before it.
    channel.on('end', () => !this.pty && this.feed('\x04'));
    channel.on('close', () => {
      this.ended = true;
      this.asking?.done(null);
    });
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Writes text or a command's bytes, turning newlines into the CR LF a terminal needs. */
  write(output: string | Uint8Array): void {
    if (this.ended) return;
    if (!this.pty) this.channel.write(output);
    else if (typeof output === 'string') this.channel.write(output.replace(/\r?\n/g, '\r\n'));
    // One character per byte, so that only the newline bytes change.
    else this.channel.write(Buffer.from(Buffer.from(output).toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1'));
  }

  /** Programs on the terminal. */
  get depth(): number {
    return this.apps.length;
  }

  /** The program on top takes the keys again (a nested login that never started). */
  resumeTop(): void {
    this.apps[this.apps.length - 1]?.resume();
  }

  push(app: TerminalApp): void {
    this.apps.push(app);
    if (this.early) {
      const keys = this.early;
      this.early = '';
      // After the program's constructor has drawn its prompt.
      queueMicrotask(() => this.feed(keys));
    }
  }

  /** The program on top ended: the one below resumes, or the session ends. */
  pop(exitCode = 0): void {
    this.apps.pop();
    const below = this.apps[this.apps.length - 1];
    if (below) below.resume();
    else this.close(exitCode);
  }

  /** Reads one line without echoing it (a password prompt); null if the person pressed Ctrl-C or left. */
  ask(prompt: string): Promise<string | null> {
    if (this.ended) return Promise.resolve(null);
    this.write(prompt);
    // Keys typed ahead of the prompt answer it, as they would on a real tty.
    const typeahead = this.held ?? '';
    if (this.held !== undefined) this.held = '';
    const answer = new Promise<string | null>((resolve) => {
      // The command's clock stops while a person types, so a prompt nobody answers must end on its own.
      const abandon = setTimeout(() => this.asking?.done(null), PROMPT_LIMIT_MS);
      this.asking = {
        typed: '',
        done: (answer) => {
          clearTimeout(abandon);
          this.asking = undefined;
          this.write('\n');
          resolve(answer);
        },
      };
    });
    if (typeahead) this.feed(typeahead);
    return answer;
  }

  close(exitCode = 0): void {
    if (this.ended) return;
    this.ended = true;
    this.channel.exit(exitCode);
    this.channel.end();
  }

  /** A program starts a command: keys wait (the rest of the line's chunk first) until release(). */
  hold(rest = ''): void {
    this.held = (this.held ?? '') + rest;
  }

  /** The command ended: the keys typed meanwhile go to whoever has the terminal now. */
  release(): void {
    const keys = this.held ?? '';
    this.held = undefined;
    if (keys) this.feed(keys);
  }

  /** Keys for whoever reads the terminal now. */
  feed(text: string): void {
    if (this.asking) return this.answer(text);
    if (this.held !== undefined) {
      this.held += text;
      return;
    }
    const top = this.apps[this.apps.length - 1];
    if (top) top.input(text);
    else this.early += text;
  }

  private answer(text: string): void {
    for (let i = 0; i < text.length && this.asking; i++) {
      const ch = text[i]!;
      if (ch === '\r' || ch === '\n') {
        const asking = this.asking;
        asking.done(asking.typed);
        const rest = text.slice(i + (ch === '\r' && text[i + 1] === '\n' ? 2 : 1));
        if (rest) this.feed(rest);
        return;
      }
      if (ch === '\x03' || ch === '\x04') this.asking.done(null);
      else if (ch === '\x7f' || ch === '\b') this.asking.typed = this.asking.typed.slice(0, -1);
      else if (ch >= ' ') this.asking.typed += ch;
    }
  }
}
