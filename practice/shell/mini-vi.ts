// A minimal vi, as more's `v` starts it on bandit26's text: enough to view a file and to do what
// level 25→26 is about: `:e FILE` and `:r FILE` read files as bandit26, `:set shell=…` and
// `:shell` (or `:!cmd`) leave through a shell, `:q` goes back to more. It is a viewer: it does not
// insert or write; docs/practice-range.md says so.
import { inOrder } from '../exec/output-chunks.ts';
import type { PracticeSession } from '../session.ts';
import type { Identity } from '../world/accounts.ts';
import { loginShell, SHOWTEXT } from '../world/accounts.ts';
import { LineShell } from './line-shell.ts';
import { MorePager } from './more-pager.ts';
import type { Terminal, TerminalApp } from './terminal.ts';

const SHELLS = new Set(['/bin/bash', '/bin/sh', '/usr/bin/bash', '/usr/bin/sh', '/bin/dash', 'bash', 'sh']);

export class MiniVi implements TerminalApp {
  private readonly terminal: Terminal;
  private readonly session: PracticeSession;
  private readonly who: Identity;
  private file: string;
  private lines: string[] = [];
  private top = 0;
  private command: string | undefined;
  private message = '';
  private shell: string;
  /** After :!cmd, the next key returns to the screen. */
  private waiting = false;

  constructor(terminal: Terminal, session: PracticeSession, who: Identity, file: string, line = 0) {
    this.terminal = terminal;
    this.session = session;
    this.who = who;
    this.file = file;
    this.top = Math.max(0, line - 1);
    // vi takes its shell from $SHELL, which for bandit26 is showtext itself.
    this.shell = loginShell(who.user);
    terminal.push(this);
    void this.edit(file, false);
  }

  resume(): void {
    this.waiting = true;
    this.terminal.write('\nPress ENTER or type command to continue');
  }

  input(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (this.waiting) {
        this.waiting = false;
        this.draw();
        if (ch === ':') this.startCommand();
        continue;
      }
      if (this.command !== undefined) {
        if (ch === '\r' || ch === '\n') {
          const command = this.command;
          this.command = undefined;
          // Keys after Enter wait for the ex command, then go to whoever reads next (a shell it started).
          this.terminal.hold(text.slice(i + 1));
          void this.run(command.trim()).finally(() => this.terminal.release());
          return;
        }
        if (ch === '\x1b' || ch === '\x03') {
          this.command = undefined;
          this.draw();
        } else if (ch === '\x7f' || ch === '\b') {
          if (this.command === '') {
            this.command = undefined;
            this.draw();
          } else {
            this.command = this.command.slice(0, -1);
            this.terminal.write('\b \b');
          }
        } else if (ch >= ' ') {
          this.command += ch;
          this.terminal.write(ch);
        }
        continue;
      }
      if (ch === ':') this.startCommand();
      else if (ch === 'j' || ch === '\x05') this.scroll(1);
      else if (ch === 'k' || ch === '\x19') this.scroll(-1);
      else if (ch === '\x04' || ch === ' ') this.scroll(this.page());
      else if (ch === '\x15') this.scroll(-this.page());
      else if (ch === 'G') this.scroll(this.lines.length);
    }
  }

  private page(): number {
    return Math.max(1, this.terminal.size.rows - 1);
  }

  private startCommand(): void {
    this.command = '';
    this.terminal.write(`\x1b[${this.terminal.size.rows};1H\x1b[K:`);
  }

  private scroll(by: number): void {
    this.top = Math.max(0, Math.min(Math.max(0, this.lines.length - 1), this.top + by));
    this.message = '';
    this.draw();
  }

  private draw(): void {
    const { rows, cols } = this.terminal.size;
    let screen = '\x1b[H\x1b[2J';
    for (let row = 0; row < rows - 1; row++) {
      const line = this.lines[this.top + row];
      screen += `${line === undefined ? '~' : line.slice(0, cols)}\x1b[K\n`;
    }
    this.terminal.write(screen + this.message.slice(0, cols - 1));
  }

  private resolve(path: string): string {
    const home = `/home/${this.who.user}`;
    const expanded = path.replace(/^~(?=\/|$)/, home);
    return expanded.startsWith('/') ? expanded : `${home}/${expanded}`;
  }

  private async edit(path: string, announce = true): Promise<void> {
    const opened = await this.session.open(this.who, this.resolve(path));
    if ('text' in opened) {
      this.file = path;
      this.lines = opened.text.replace(/\n$/, '').split('\n');
      if (announce) this.top = 0;
      this.message = `"${path}" ${this.lines.length}L, ${opened.text.length}B`;
    } else {
      this.message =
        opened.error === 'EACCES'
          ? `"${path}" [Permission Denied]`
          : opened.error === 'EISDIR'
            ? `"${path}" is a directory`
            : `"${path}" [New]`;
      if (opened.error === 'ENOENT') {
        this.file = path;
        this.lines = [];
      }
    }
    this.draw();
  }

  private async run(command: string): Promise<void> {
    const [, name = '', arg = ''] = /^(\S*?!?)(?:\s+(.*))?$/.exec(command) ?? [];
    if (/^!/.test(command)) return this.bang(command.slice(1).trim());
    if (/^e(dit)?!?$/.test(name)) return arg ? this.edit(arg) : this.edit(this.file);
    if (/^r(ead)?$/.test(name)) {
      const opened = await this.session.open(this.who, this.resolve(arg));
      if ('text' in opened) this.lines.splice(this.top + 1, 0, ...opened.text.replace(/\n$/, '').split('\n'));
      this.message = 'text' in opened ? '' : `E484: Can't open file ${arg}`;
      return this.draw();
    }
    if (/^se(t)?$/.test(name)) return this.set(arg);
    if (/^sh(ell)?$/.test(name)) return this.startShell();
    if (/^(q|q!|quit|quit!|wq|wq!|x|x!|qa|qa!)$/.test(name)) {
      this.terminal.write('\x1b[H\x1b[2J');
      return this.terminal.pop();
    }
    if (/^w(rite)?!?$/.test(name)) this.message = "E45: 'readonly' option is set (add ! to override)";
    else if (/^\d+$/.test(name)) return this.scroll(Number(name) - 1 - this.top);
    else this.message = `E492: Not an editor command: ${command}`;
    this.draw();
  }

  private set(arg: string): void {
    const m = /^(shell|sh)(?:\s*=\s*(\S+)|(\?))?$/.exec(arg);
    if (!m) this.message = arg ? `E518: Unknown option: ${arg}` : '';
    else if (m[2]) this.shell = m[2];
    else this.message = `  shell=${this.shell}`;
    this.draw();
  }

  /** :shell runs the shell option; for bandit26 that is showtext again, until it is set to a real shell. */
  private startShell(): void {
    this.terminal.write('\x1b[H\x1b[2J');
    if (this.shell === SHOWTEXT) {
      new MorePager(this.terminal, this.session, this.who, `/home/${this.who.user}/text.txt`);
      return;
    }
    if (!SHELLS.has(this.shell)) {
      this.terminal.write(`\nshell returned 127\n`);
      return this.resume();
    }
    new LineShell(this.terminal, this.session, this.who, { farewell: 'exit\n' });
  }

  private async bang(command: string): Promise<void> {
    this.terminal.write('\n');
    if (this.shell === SHOWTEXT) {
      new MorePager(this.terminal, this.session, this.who, `/home/${this.who.user}/text.txt`);
      return;
    }
    const result = await this.session.run(
      this.who,
      command,
      { cwd: `/home/${this.who.user}` },
      { interactive: true, ask: (prompt) => this.terminal.ask(prompt) },
    );
    for (const chunk of inOrder(result)) this.terminal.write(chunk.bytes);
    this.resume();
  }
}
