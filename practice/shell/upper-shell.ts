// bandit32's login shell: every line is turned to upper case and handed to sh, running as bandit33
// (the shell is setuid). Commands come out as LS, CAT…, which do not exist; `$0` has no letters to
// change and names sh itself, which starts a plain sh: level 32→33's way out.
import { inOrder } from '../exec/output-chunks.ts';
import type { PracticeSession } from '../session.ts';
import type { Identity } from '../world/accounts.ts';
import { setuidIdentity } from '../world/accounts.ts';
import { LineShell } from './line-shell.ts';
import type { Terminal, TerminalApp } from './terminal.ts';

export class UpperShell implements TerminalApp {
  private readonly terminal: Terminal;
  private readonly session: PracticeSession;
  private readonly who: Identity;
  private readonly farewell: string;
  private line = '';

  constructor(terminal: Terminal, session: PracticeSession, who: Identity, farewell = '') {
    this.terminal = terminal;
    this.session = session;
    this.who = setuidIdentity(who, 'bandit33');
    this.farewell = farewell;
    terminal.push(this);
    terminal.write('WELCOME TO THE UPPERCASE SHELL\n>> ');
  }

  resume(): void {
    this.terminal.write('>> ');
  }

  input(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\r' || ch === '\n') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        this.terminal.hold(text.slice(i + 1));
        void this.submit();
        return;
      }
      if (ch === '\x04' && this.line === '') {
        this.terminal.write(this.farewell);
        return this.terminal.pop();
      }
      if (ch === '\x03') {
        this.line = '';
        this.terminal.write('^C\n>> ');
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line) this.terminal.write(this.terminal.pty ? '\b \b' : '');
        this.line = this.line.slice(0, -1);
      } else if (ch >= ' ') {
        this.line += ch;
        if (this.terminal.pty) this.terminal.write(ch);
      }
    }
  }

  private async submit(): Promise<void> {
    const command = this.line.toUpperCase().trim();
    this.line = '';
    if (this.terminal.pty) this.terminal.write('\n');
    if (command === '$0' || command === '${0}') {
      new LineShell(this.terminal, this.session, this.who, { prompt: '$ ', farewell: '' });
      return this.terminal.release();
    }
    if (command) {
      const result = await this.session.run(
        this.who,
        command,
        { cwd: `/home/${this.who.user}` },
        { interactive: true },
      );
      // sh, not bash, runs the line: its words for a command it cannot run.
      for (const chunk of inOrder(result)) {
        const text = Buffer.from(chunk.bytes).toString('utf8');
        if (chunk.stream === 'stdout') this.terminal.write(chunk.bytes);
        else
          this.terminal.write(
            text.replace(/^bash: (?:line \d+: )?(\S+): command not found$/gm, 'sh: 1: $1: Permission denied'),
          );
      }
    }
    if (!this.terminal.closed) this.terminal.write('>> ');
    this.terminal.release();
  }
}
