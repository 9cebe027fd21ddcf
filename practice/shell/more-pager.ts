// `more` as bandit26's login shell runs it: on a terminal shorter than the text it stops at
// --More--, where space and Enter page on, q quits, and v opens vi on the file (level 25→26's way
// out). Without a terminal, or when the text fits, it prints the text and ends, as more does.
import type { PracticeSession } from '../session.ts';
import type { Identity } from '../world/accounts.ts';
import { MiniVi } from './mini-vi.ts';
import type { Terminal, TerminalApp } from './terminal.ts';

export class MorePager implements TerminalApp {
  private readonly terminal: Terminal;
  private readonly session: PracticeSession;
  private readonly who: Identity;
  private readonly path: string;
  private readonly farewell: string;
  private lines: string[] = [];
  private shown = 0;

  constructor(terminal: Terminal, session: PracticeSession, who: Identity, path: string, farewell = '') {
    this.terminal = terminal;
    this.session = session;
    this.who = who;
    this.path = path;
    this.farewell = farewell;
    terminal.push(this);
    void this.start();
  }

  private async start(): Promise<void> {
    const text = await this.session.readFile(this.who, this.path);
    if (text === undefined) {
      this.terminal.write(`more: cannot open ${this.path}: Permission denied\n`);
      return this.end();
    }
    this.lines = text.replace(/\n$/, '').split('\n');
    const page = this.terminal.size.rows - 1;
    if (!this.terminal.pty || this.lines.length <= page) {
      this.terminal.write(`${text}`);
      return this.end();
    }
    this.show(page);
  }

  input(text: string): void {
    for (const ch of text) {
      if (this.shown === 0) return;
      if (ch === ' ' || ch === 'f') this.show(this.terminal.size.rows - 1);
      else if (ch === '\r' || ch === '\n' || ch === 'j') this.show(1);
      else if (ch === 'q' || ch === 'Q' || ch === '\x03' || ch === '\x04') return this.end();
      else if (ch === 'v') {
        this.clearPrompt();
        new MiniVi(this.terminal, this.session, this.who, this.path, this.shown);
        return;
      }
    }
  }

  resume(): void {
    this.prompt();
  }

  private show(count: number): void {
    this.clearPrompt();
    const next = Math.min(this.lines.length, this.shown + count);
    for (let i = this.shown; i < next; i++) this.terminal.write(`${this.lines[i]}\n`);
    this.shown = next;
    if (this.shown >= this.lines.length) return this.end();
    this.prompt();
  }

  private prompt(): void {
    const total = this.lines.join('\n').length + 1;
    const seen = this.lines.slice(0, this.shown).join('\n').length + 1;
    this.terminal.write(`\x1b[7m--More--(${Math.floor((seen / total) * 100)}%)\x1b[27m`);
  }

  private clearPrompt(): void {
    this.terminal.write('\r\x1b[K');
  }

  private end(): void {
    this.shown = 0;
    this.terminal.write(this.farewell);
    this.terminal.pop();
  }
}
