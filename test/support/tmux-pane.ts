// A real terminal for the CLI's terminal tests: a tmux server of its own, one pane running `sh`, keys
// sent with `send-keys`, the screen read with `capture-pane`. `attach` puts that pane's tty in raw mode;
// dash (no readline) leaves the tty as it finds it at its prompt, so `stty -F` from outside reads the truth.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect, vi } from 'vitest';

/** One tmux pane running `sh` (prompt `pane$`); every command goes to its own tmux server (-L). */
export class TmuxPane {
  private readonly socket: string;

  private constructor(socket: string) {
    this.socket = socket;
  }

  /** Starts a detached session of `cols`×`rows` running a plain `sh` in `cwd`, with `env` exported. */
  static start(name: string, size: { cols: number; rows: number }, cwd: string, env: Record<string, string> = {}) {
    const pane = new TmuxPane(`${name}-${process.pid}-${Date.now()}`);
    const exports = Object.entries(env).map(([k, v]) => `-e${k}=${v}`);
    pane.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 's', '-c', cwd, ...exports, 'sh');
    pane.tmux('set-option', '-g', 'history-limit', '20000');
    pane.resize(size.cols, size.rows);
    // dash sets root's prompt itself, whatever the environment says.
    pane.type("PS1='pane$ '", true);
    return pane;
  }

  /** Runs tmux against this pane's server and returns its output. */
  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  }

  /** Types text as it is (no key names), then Enter when asked. */
  type(text: string, enter = false): void {
    this.tmux('send-keys', '-t', 's', '-l', text);
    if (enter) this.tmux('send-keys', '-t', 's', 'Enter');
  }

  /** Presses keys by tmux's names: `Enter`, `C-]`, `Space`, `Escape`. */
  press(...keys: string[]): void {
    this.tmux('send-keys', '-t', 's', ...keys);
  }

  /** The visible screen, lines joined where they wrapped. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', 's');
  }

  /** The whole scrollback and screen, lines joined where they wrapped. */
  history(): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', 's', '-S', '-');
  }

  /** Waits until the screen (or the whole history) matches, and returns it. */
  async waitFor(pattern: RegExp, options: { history?: boolean; timeout?: number } = {}): Promise<string> {
    let seen = '';
    await vi.waitFor(
      () => {
        seen = options.history ? this.history() : this.screen();
        expect(seen).toMatch(pattern);
      },
      { timeout: options.timeout ?? 30_000, interval: 100 },
    );
    return seen;
  }

  /** The pane's tty mode as `stty -F` reads it from outside: raw mode has neither icanon nor echo. */
  ttyMode(): { icanon: boolean; echo: boolean } {
    const tty = this.tmux('display-message', '-p', '-t', 's', '#{pane_tty}').trim();
    const modes = execFileSync('stty', ['-a', '-F', tty], { encoding: 'utf8' });
    return { icanon: /(^|\s)icanon\b/.test(modes), echo: /(^|\s)echo\b/.test(modes) };
  }

  /** Resizes the window (the program in it gets SIGWINCH). */
  resize(cols: number, rows: number): void {
    this.tmux('resize-window', '-t', 's', '-x', String(cols), '-y', String(rows));
  }

  /** Clears the screen and the history, so the next wait sees only what comes after. */
  clear(): void {
    this.press('C-l');
    this.tmux('clear-history', '-t', 's');
  }

  /** Ends the tmux server and removes its socket file, which tmux leaves behind. */
  kill(): void {
    let socketPath = '';
    try {
      socketPath = this.tmux('display-message', '-p', '#{socket_path}').trim();
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
    if (socketPath) rmSync(socketPath, { force: true });
  }
}
