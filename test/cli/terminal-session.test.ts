// The holder's side of the shared terminal, against a loopback run socket that answers as the Durable
// Object does: takeover with the tty's size, keys out and bytes in, resize, Ctrl-] hands back, a second
// holder is named, a server-side close says why, and a human run's terminal reopens after a solved level.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../cli/api-client.ts';
import { DETACH_KEY } from '../../cli/terminal/keys.ts';
import { RawTerminal, RESET_SEQUENCE } from '../../cli/terminal/raw-terminal.ts';
import type { SessionEnd } from '../../cli/terminal/terminal-session.ts';
import { TerminalSession } from '../../cli/terminal/terminal-session.ts';
import type { ClientMessage, PendingAction } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { TerminalState } from '../../schema/terminal.ts';
import type { FakeTerminalRun } from '../support/fake-terminal-run.ts';
import { pauseAt, startFakeTerminalRun, TERMINAL_RUN_ID, terminalRunSummary } from '../support/fake-terminal-run.ts';

class FakeTty extends PassThrough {
  isTTY = true;
  isRaw = false;
  readonly modes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    this.modes.push(mode);
    return this;
  }
}

class FakeScreen extends EventEmitter {
  columns = 100;
  rows = 30;
  bytes = '';
  write(data: string | Uint8Array): boolean {
    this.bytes += typeof data === 'string' ? data : Buffer.from(data).toString('latin1');
    return true;
  }
}

const held = (you: boolean, by = 'the CLI', level = 0): TerminalState & { type: 'terminal' } => ({
  type: 'terminal',
  open: true,
  by,
  you,
  level,
  size: { cols: 100, rows: 30 },
});
const closed = { type: 'terminal', open: false, by: null, you: false, level: null, size: null } as const;
const b64 = (text: string) => Buffer.from(text).toString('base64');

let fake: FakeTerminalRun | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** Runs a session against the fake; `typed` is called once the terminal is held, with the keyboard. */
async function session(
  run: RunSummary,
  pending: PendingAction | null,
  onMessage: (m: ClientMessage, f: FakeTerminalRun) => void,
  typed: (keys: FakeTty, screen: FakeScreen) => void = () => undefined,
  before: (f: FakeTerminalRun) => void = () => undefined,
) {
  const f = await startFakeTerminalRun(run, pending, onMessage);
  fake = f;
  before(f);
  const keys = new FakeTty();
  const screen = new FakeScreen();
  const notices: string[] = [];
  const client = new ApiClient({ url: f.url, token: null });
  const terminal = new RawTerminal({ input: keys, output: screen }, new EventEmitter() as unknown as NodeJS.Process);
  const s = new TerminalSession({
    runId: TERMINAL_RUN_ID,
    open: (since) => client.socket(TERMINAL_RUN_ID, since),
    terminal,
    output: screen,
    notice: (line) => {
      notices.push(line);
      if (line.startsWith('you hold the terminal')) typed(keys, screen);
    },
  });
  const end: SessionEnd = await s.run();
  return { end, keys, screen, notices, received: f.received };
}

describe('TerminalSession', () => {
  it('takes the terminal at the tty size, types, echoes, resizes and hands back with Ctrl-]', async () => {
    const r = await session(
      terminalRunSummary('baseline', 'running'),
      null,
      (m, f) => {
        if (m.type === 'user_action' && m.action === 'takeover') f.send(held(true));
        if (m.type === 'terminal_input') f.emit({ type: 'terminal_output', level: 0, data: b64(`echo:${m.data}`) });
        if (m.type === 'user_action' && m.action === 'handback') f.send(closed);
      },
      (keys, screen) => {
        keys.write('cat readme\r');
        screen.columns = 120;
        screen.emit('resize');
        setTimeout(() => keys.write(`x${DETACH_KEY}ignored`), 200);
      },
    );
    expect(r.end).toEqual({ kind: 'detached' });
    expect(r.received).toEqual([
      { type: 'user_action', action: 'takeover', cols: 100, rows: 30 },
      { type: 'terminal_input', data: 'cat readme\r' },
      { type: 'terminal_resize', cols: 120, rows: 30 },
      { type: 'terminal_input', data: 'x' },
      { type: 'user_action', action: 'handback' },
    ]);
    expect(r.screen.bytes).toContain('echo:cat readme\r');
    // Output after Ctrl-] is not shown: the person has left.
    expect(r.screen.bytes).not.toContain('echo:x');
    expect(r.keys.modes).toEqual([true, false]);
    expect(r.notices[1]).toMatch(/^you hold the terminal of run_\w+; Ctrl-\] hands it back/);
  });

  it('names the holder when another client holds it, and never enters raw mode', async () => {
    const r = await session(terminalRunSummary('baseline', 'paused_for_user_action'), pauseAt('takeover'), (m, f) => {
      if (m.type !== 'user_action') return;
      f.send(held(false, 'the web UI'));
      f.send({ type: 'error', code: 'terminal_held', message: 'the terminal is held by the web UI' });
    });
    expect(r.end).toEqual({ kind: 'held', by: 'the web UI' });
    expect(r.keys.modes).toEqual([]);
  });

  it('says why the server closed the terminal (idle) and restores the tty', async () => {
    const r = await session(
      terminalRunSummary('baseline', 'running'),
      null,
      (m, f) => {
        if (m.type === 'user_action') f.send(held(true));
        if (m.type === 'terminal_input') {
          f.send(closed);
          f.emit({ type: 'takeover_ended', level: 0, by: 'the CLI', reason: 'idle', durationMs: 5 });
        }
      },
      (keys) => keys.write('ls\r'),
    );
    expect(r.end).toEqual({ kind: 'closed', reason: 'idle', message: '' });
    expect(r.keys.modes).toEqual([true, false]);
  });

  it('a refusal that names no holder (a queued run) is reported with the stack words', async () => {
    const r = await session(terminalRunSummary('baseline', 'queued'), null, (_m, f) =>
      f.send({
        type: 'error',
        code: 'terminal_held',
        message: 'the run is queued; take the terminal once it has started',
      }),
    );
    expect(r.end).toEqual({ kind: 'refused', message: 'the run is queued; take the terminal once it has started' });
  });

  it('shows only the output of its own session, not an earlier takeover replayed from the log', async () => {
    const r = await session(
      terminalRunSummary('baseline', 'running'),
      null,
      (m, f) => {
        if (m.type === 'user_action' && m.action === 'takeover') {
          f.emit({ type: 'terminal_output', level: 0, data: b64('mine$ ') });
          f.send(held(true));
        }
        if (m.type === 'user_action' && m.action === 'handback') f.send(closed);
      },
      (keys) => setTimeout(() => keys.write(DETACH_KEY), 100),
      (f) => f.emit({ type: 'terminal_output', level: 0, data: b64('an earlier session') }),
    );
    expect(r.end).toEqual({ kind: 'detached' });
    expect(r.screen.bytes).toBe(`mine$ ${RESET_SEQUENCE}`);
  });

  it('a human run: waits for the turn, keeps raw mode through a solved level, and the terminal reopens', async () => {
    let takeovers = 0;
    const r = await session(
      terminalRunSummary('human', 'paused_for_user_action'),
      pauseAt('human_turn'),
      (m, f) => {
        if (m.type === 'user_action' && m.action === 'takeover') {
          takeovers += 1;
          f.send(held(true));
        }
        if (m.type === 'terminal_input' && m.data === 'cat readme\r') {
          f.send(closed);
          f.emit(
            { type: 'takeover_ended', level: 0, by: 'the CLI', reason: 'solved', durationMs: 4200, provedLevel: 1 },
            { type: 'level_complete', level: 0, nextLevel: 1, commands: 1, durationMs: 4200, solvedBy: 'person' },
          );
          setTimeout(() => f.send(held(true, 'the CLI', 1)), 100);
        }
        if (m.type === 'terminal_input' && m.data === 'ls\r')
          f.emit({ type: 'terminal_output', level: 0, data: b64('level1$ ') });
        if (m.type === 'user_action' && m.action === 'handback') f.send(closed);
      },
      (keys) => {
        keys.write('cat readme\r');
        setTimeout(() => keys.write('ls\r'), 400);
        setTimeout(() => keys.write(DETACH_KEY), 700);
      },
    );
    expect(r.end).toEqual({ kind: 'detached' });
    expect(takeovers).toBe(1);
    expect(r.notices).toContain('level 0 solved in 4.2s');
    // One hint, one raw session across both levels.
    expect(r.notices.filter((n) => n.startsWith('you hold'))).toHaveLength(1);
    expect(r.keys.modes).toEqual([true, false]);
    expect(r.screen.bytes).toContain('level1$ ');
  });

  it('a dropped connection while holding ends the session (the terminal is lost) and restores the tty', async () => {
    const r = await session(
      terminalRunSummary('baseline', 'running'),
      null,
      (m, f) => {
        if (m.type === 'user_action') f.send(held(true));
        if (m.type === 'terminal_input') f.drop();
      },
      (keys) => keys.write('ls\r'),
    );
    expect(r.end).toEqual({ kind: 'closed', reason: null, message: 'the connection to the stack dropped' });
    expect(r.keys.modes).toEqual([true, false]);
  });

  it('a dropped connection while the takeover waits ends the session instead of waiting forever', async () => {
    const r = await session(terminalRunSummary('baseline', 'running'), null, (m, f) => {
      if (m.type === 'user_action') f.drop();
    });
    expect(r.end).toEqual({ kind: 'closed', reason: null, message: 'the connection to the stack dropped' });
    expect(r.keys.modes).toEqual([]);
  });

  it('a human run survives a drop between levels: the next turn is taken again on the new socket', async () => {
    let takeovers = 0;
    const r = await session(
      terminalRunSummary('human', 'paused_for_user_action'),
      pauseAt('human_turn'),
      (m, f) => {
        if (m.type === 'user_action' && m.action === 'takeover') {
          takeovers += 1;
          f.send(held(true, 'the CLI', takeovers - 1));
        }
        if (m.type === 'terminal_input' && m.data === 'cat readme\r') {
          f.send(closed);
          f.emit({ type: 'takeover_ended', level: 0, by: 'the CLI', reason: 'solved', durationMs: 10, provedLevel: 1 });
          setTimeout(() => f.drop(), 50);
        }
        if (m.type === 'user_action' && m.action === 'handback') f.send(closed);
      },
      (keys) => {
        keys.write('cat readme\r');
        // Once the second takeover has been answered, leave.
        const wait = setInterval(() => {
          if (takeovers < 2) return;
          clearInterval(wait);
          setTimeout(() => keys.write(DETACH_KEY), 100);
        }, 50);
      },
    );
    expect(takeovers).toBe(2);
    expect(r.end).toEqual({ kind: 'detached' });
    expect(r.keys.modes).toEqual([true, false]);
  }, 15_000);

  it('an ended run has no terminal to take', async () => {
    const r = await session(terminalRunSummary('baseline', 'completed'), null, () => undefined);
    expect(r.end).toEqual({ kind: 'run_ended', status: 'completed' });
    expect(r.received).toEqual([]);
  });
});
