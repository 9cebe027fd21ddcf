// An interactive bash: a prompt, line editing (arrows, backspace, Ctrl-A/E/U/C/D, history) and the
// working directory and variables kept between commands, on a Terminal.
import { inOrder } from '../exec/output-chunks.ts';
import type { PracticeSession } from '../session.ts';
import type { Identity } from '../world/accounts.ts';
import type { Terminal, TerminalApp } from './terminal.ts';

type Frame = { who: Identity; cwd: string; env?: Record<string, string> };

export type LineShellOptions = {
  greeting?: string;
  /** What is printed when it exits (nested logins say the connection closed). */
  farewell?: string;
  /** The prompt; bash's user@host:dir$ unless given (sh prints "$ "). */
  prompt?: string;
  /** Starts the login shell of a user that `ssh` in this shell logged in as. */
  login?: (who: Identity) => void;
};

/** One shell on a terminal: `exit` or Ctrl-D on an empty line ends it. */
export class LineShell implements TerminalApp {
  private readonly terminal: Terminal;
  private readonly session: PracticeSession;
  private readonly options: LineShellOptions;
  private readonly frame: Frame;
  private line = '';
  private cursor = 0;
  private readonly history: string[] = [];
  private historyIndex = 0;

  constructor(terminal: Terminal, session: PracticeSession, who: Identity, options: LineShellOptions = {}) {
    this.terminal = terminal;
    this.session = session;
    this.options = options;
    this.frame = { who, cwd: `/home/${who.user}` };
    terminal.push(this);
    if (options.greeting) this.write(options.greeting);
    this.prompt();
  }

  resume(): void {
    this.prompt();
  }

  private write(text: string | Uint8Array): void {
    this.terminal.write(text);
  }

  private prompt(): void {
    if (this.options.prompt !== undefined) return this.write(this.options.prompt);
    const { who, cwd } = this.frame;
    const home = `/home/${who.user}`;
    const shown = cwd === home ? '~' : cwd.startsWith(`${home}/`) ? `~${cwd.slice(home.length)}` : cwd;
    this.write(`${who.euser}@practice:${shown}$ `);
  }

  input(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\x1b' && text[i + 1] === '[') {
        this.arrow(text[i + 2] ?? '');
        i += 2;
      } else if (ch === '\r' || ch === '\n') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        // Keys after Enter wait while the command runs (Ctrl-C there is left to the timeout).
        this.terminal.hold(text.slice(i + 1));
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
          return this.exit();
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
    if (command === 'exit' || command === 'logout') return this.exit();
    if (command) {
      const frame = this.frame;
      const result = await this.session.run(frame.who, command, frame, {
        interactive: true,
        ask: (prompt) => this.terminal.ask(prompt),
      });
      if (result.env) {
        frame.cwd = result.env.PWD ?? frame.cwd;
        frame.env = result.env;
      }
      for (const chunk of inOrder(result)) this.write(chunk.bytes);
      if (result.openShell && this.options.login) {
        // The new login takes the terminal; this shell prompts again when it ends.
        this.options.login(result.openShell);
        return this.terminal.release();
      }
    }
    if (!this.terminal.closed) this.prompt();
    this.terminal.release();
  }

  private exit(): void {
    this.write(this.options.farewell ?? 'logout\n');
    this.terminal.pop();
    this.terminal.release();
  }
}
