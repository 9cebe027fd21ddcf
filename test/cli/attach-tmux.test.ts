// `bandit-runner attach` in a real tty (tmux) against a loopback run socket playing the Durable Object:
// the tty is raw while the terminal is held (read from outside with `stty -F`), keys and a resize
// reach the socket, bytes reach the screen, and every way out gives the tty back with its exit code.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientMessage } from '../../schema/protocol.ts';
import { runCli } from '../support/cli-process.ts';
import type { FakeTerminalRun } from '../support/fake-terminal-run.ts';
import { pauseAt, startFakeTerminalRun, TERMINAL_RUN_ID, terminalRunSummary } from '../support/fake-terminal-run.ts';
import { TmuxPane } from '../support/tmux-pane.ts';

const root = join(import.meta.dirname, '../..');
const b64 = (text: string) => Buffer.from(text).toString('base64');
const PROMPT = 'bandit0@range:~$ ';

let fake: FakeTerminalRun | null = null;
let pane: TmuxPane | null = null;
afterEach(async () => {
  pane?.kill();
  await fake?.close();
  fake = pane = null;
});

/** A fake shell behind the terminal: it echoes each key; Enter ends the line with a new prompt. */
function shell(extra: (m: ClientMessage, f: FakeTerminalRun) => void = () => undefined) {
  return (m: ClientMessage, f: FakeTerminalRun) => {
    if (m.type === 'user_action' && m.action === 'takeover') {
      f.send({ type: 'terminal', open: true, by: 'the CLI', you: true, level: 0, size: { cols: 80, rows: 24 } });
      f.emit({ type: 'terminal_output', level: 0, data: b64(PROMPT) });
    }
    if (m.type === 'terminal_input')
      f.emit({ type: 'terminal_output', level: 0, data: b64(m.data.replaceAll('\r', `\r\n${PROMPT}`)) });
    if (m.type === 'user_action' && m.action === 'handback')
      f.send({ type: 'terminal', open: false, by: null, you: false, level: null, size: null });
    extra(m, f);
  };
}

/** Starts `attach` in a fresh 80×24 pane; resolves once it holds the terminal. */
async function attachInPane(f: FakeTerminalRun): Promise<TmuxPane> {
  const p = TmuxPane.start('attach', { cols: 80, rows: 24 }, root, { NO_COLOR: '1' });
  pane = p;
  await p.waitFor(/^pane\$ *$/m);
  p.type(`${process.execPath} cli/main.ts --url ${f.url} attach ${TERMINAL_RUN_ID}; echo EXIT=$?`, true);
  await p.waitFor(/you hold the terminal of run_\w+; Ctrl-\] hands it back/);
  await p.waitFor(/bandit0@range:~\$ *$/m);
  return p;
}

describe('bandit-runner attach in a real terminal', () => {
  it('raw mode while held: keys, echo, a resize; Ctrl-] hands back, exit 0 and the tty is itself again', async () => {
    fake = await startFakeTerminalRun(terminalRunSummary('baseline', 'running'), null, shell());
    const p = await attachInPane(fake);
    expect(p.ttyMode()).toEqual({ icanon: false, echo: false });
    p.type('cat readme');
    p.press('Enter');
    await p.waitFor(/bandit0@range:~\$ cat readme\n\s*bandit0@range:~\$/);
    // Ctrl-C is a key for the remote shell, not a signal here.
    p.press('C-c');
    p.resize(100, 30);
    await vi.waitFor(() => expect(fake?.received).toContainEqual({ type: 'terminal_resize', cols: 100, rows: 30 }));
    p.press('C-]');
    await p.waitFor(/handed back; the terminal is closed\n\s*EXIT=0/);
    expect(p.ttyMode()).toEqual({ icanon: true, echo: true });
    const sent = fake.received;
    expect(sent[0]).toEqual({ type: 'user_action', action: 'takeover', cols: 80, rows: 24 });
    expect(sent).toContainEqual({ type: 'terminal_input', data: '\x03' });
    expect(sent).toContainEqual({ type: 'terminal_resize', cols: 100, rows: 30 });
    expect(sent.at(-1)).toEqual({ type: 'user_action', action: 'handback' });
    expect(
      sent
        .filter((m) => m.type === 'terminal_input')
        .map((m) => m.data)
        .join(''),
    ).toBe('cat readme\r\x03');
    // The pane's shell works as before: its own echo and line editing.
    p.type('stty -a | grep -o "[-]*icanon"', true);
    await p.waitFor(/^icanon$/m);
  }, 60_000);

  it('the stack closes the terminal (a restart): it says why, exits 7, the tty is given back', async () => {
    fake = await startFakeTerminalRun(
      terminalRunSummary('baseline', 'running'),
      null,
      shell((m, f) => {
        if (m.type !== 'terminal_input' || m.data !== 'x') return;
        f.send({ type: 'terminal', open: false, by: null, you: false, level: null, size: null });
        f.emit({ type: 'takeover_ended', level: 0, by: 'the CLI', reason: 'restart', durationMs: 900 });
      }),
    );
    const p = await attachInPane(fake);
    p.type('x');
    await p.waitFor(/the terminal closed: the stack restarted; the run stays paused\n\s*EXIT=7/);
    expect(p.ttyMode()).toEqual({ icanon: true, echo: true });
  }, 60_000);

  it('held by another client: names the holder, exits 6, never touches the tty', async () => {
    fake = await startFakeTerminalRun(
      terminalRunSummary('baseline', 'paused_for_user_action'),
      pauseAt('takeover'),
      (m, f) => {
        if (m.type !== 'user_action') return;
        f.send({ type: 'terminal', open: true, by: 'the web UI', you: false, level: 0, size: null });
        f.send({ type: 'error', code: 'terminal_held', message: 'the terminal is held by the web UI' });
      },
    );
    const p = TmuxPane.start('attach-held', { cols: 80, rows: 24 }, root, { NO_COLOR: '1' });
    pane = p;
    await p.waitFor(/^pane\$ *$/m);
    p.type(`${process.execPath} cli/main.ts --url ${fake.url} attach ${TERMINAL_RUN_ID}; echo EXIT=$?`, true);
    await p.waitFor(/bandit-runner: the terminal is held by the web UI; wait until they hand it back\n\s*EXIT=6/);
    expect(p.ttyMode()).toEqual({ icanon: true, echo: true });
  }, 60_000);

  it('refuses to run without a terminal unless --allow-no-tty', async () => {
    const refused = await runCli('http://127.0.0.1:1', ['attach', TERMINAL_RUN_ID]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/attach needs a terminal: stdin and stdout must be a tty .*--allow-no-tty/);
    const bad = await runCli('http://127.0.0.1:1', ['attach', 'nope', '--allow-no-tty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"nope" is not a run id/);
  });
});
