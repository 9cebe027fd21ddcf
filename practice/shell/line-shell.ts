// The interactive login: a prompt, line editing (arrows, backspace, Ctrl-A/E/U/C/D, history) and
// the working directory and variables kept between commands, over an SSH pty channel.
import type { ServerChannel } from 'ssh2';
import type { PracticeSession } from '../session.ts';
import type { Identity } from '../world/accounts.ts';

type Frame = { who: Identity; cwd: string; env?: Record<string, string> };

/** One person's terminal. `ssh` inside it pushes a frame; `exit` pops one, or logs out. */
export class LineShell {
  private readonly channel: ServerChannel;
  private readonly session: PracticeSession;
  private readonly frames: Frame[] = [];
  private line = '';
  private cursor = 0;
  private readonly history: string[] = [];
  private historyIndex = 0;
  private busy = false;
  private pending = '';
  private closed = false;

  constructor(channel: ServerChannel, session: PracticeSession, who: Identity, greeting: string) {
    this.channel = channel;
    this.session = session;
    this.push(who);
    this.write(greeting);
    this.prompt();
    channel.on('data', (data: Buffer) => this.input(data.toString('utf8')));
    channel.on('close', () => {
      this.closed = true;
    });
  }

  private push(who: Identity): void {
    this.frames.push({ who, cwd: `/home/${who.user}` });
  }

  private get frame(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  private write(text: string): void {
    if (!this.closed) this.channel.write(text.replace(/\r?\n/g, '\r\n'));
  }

  private prompt(): void {
    const { who, cwd } = this.frame;
    const home = `/home/${who.user}`;
    const shown = cwd === home ? '~' : cwd.startsWith(`${home}/`) ? `~${cwd.slice(home.length)}` : cwd;
    this.write(`${who.euser}@practice:${shown}$ `);
  }

  private input(text: string): void {
    if (this.busy) {
      // Typed while a command runs: Ctrl-C is handled by the timeout; keep the rest for later.
      this.pending += text;
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\x1b' && text[i + 1] === '[') {
        this.arrow(text[i + 2] ?? '');
        i += 2;
      } else if (ch === '\r' || ch === '\n') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        this.pending = text.slice(i + 1);
        void this.submit();
        return;
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.cursor > 0) {
          this.line = this.line.slice(0, this.cursor - 1) + this.line.slice(this.cursor);
          this.cursor--;
          this.redraw();
        }
      } else if (ch === '\x01') {
        this.cursor = 0;
        this.redraw();
      } else if (ch === '\x05') {
        this.cursor = this.line.length;
        this.redraw();
      } else if (ch === '\x15') {
        this.line = this.line.slice(this.cursor);
        this.cursor = 0;
        this.redraw();
      } else if (ch === '\x03') {
        this.write('^C\n');
        this.line = '';
        this.cursor = 0;
        this.prompt();
      } else if (ch === '\x04') {
        if (this.line === '') {
          this.write('\n');
          if (!this.exit()) return;
        }
      } else if (ch >= ' ') {
        const atEnd = this.cursor === this.line.length;
        this.line = this.line.slice(0, this.cursor) + ch + this.line.slice(this.cursor);
        this.cursor++;
        // Typing at the end of the line only needs an echo; a redraw would flood the terminal.
        if (atEnd) this.write(ch);
        else this.redraw();
      }
    }
  }

  private arrow(code: string): void {
    if (code === 'D' && this.cursor > 0) this.cursor--;
    else if (code === 'C' && this.cursor < this.line.length) this.cursor++;
    else if ((code === 'A' || code === 'B') && this.history.length) {
      this.historyIndex = Math.max(0, Math.min(this.history.length, this.historyIndex + (code === 'A' ? -1 : 1)));
      this.line = this.history[this.historyIndex] ?? '';
      this.cursor = this.line.length;
    }
    this.redraw();
  }

  /** Rewrites the current line and puts the cursor where it belongs. */
  private redraw(): void {
    this.write('\r\x1b[K');
    this.prompt();
    this.write(this.line);
    const back = this.line.length - this.cursor;
    if (back > 0) this.write(`\x1b[${back}D`);
  }

  private async submit(): Promise<void> {
    const command = this.line.trim();
    this.line = '';
    this.cursor = 0;
    this.write('\n');
    if (command) {
      this.history.push(command);
      this.historyIndex = this.history.length;
    }
    if (command === 'exit' || command === 'logout') {
      if (!this.exit()) return;
    } else if (command) {
      this.busy = true;
      const frame = this.frame;
      const result = await this.session.run(frame.who, command, frame, { interactive: true });
      if (result.env) {
        frame.cwd = result.env.PWD ?? frame.cwd;
        frame.env = result.env;
      }
      if (result.openShell) this.push(result.openShell);
      this.write(result.stdout);
      this.write(result.stderr);
      this.busy = false;
    }
    if (this.closed) return;
    if (command !== 'exit' && command !== 'logout') this.prompt();
    const rest = this.pending;
    this.pending = '';
    if (rest) this.input(rest);
  }

  /** Leaves the innermost login; true while the terminal stays open. */
  private exit(): boolean {
    if (this.frames.length > 1) {
      this.frames.pop();
      this.write(`logout\nConnection to localhost closed.\n`);
      this.prompt();
      return true;
    }
    this.write('logout\n');
    this.channel.exit(0);
    this.channel.end();
    this.closed = true;
    return false;
  }
}
