// The person's tty is always given back: raw mode off and the remote program's modes reset on
// restore, on a signal (then the exit code says which) and at process exit.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RawTerminal, RESET_SEQUENCE, sizeOf } from '../../cli/terminal/raw-terminal.ts';

/** A keyboard that says it is a tty and records each raw-mode switch. */
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
  text = '';
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

class FakeProcess extends EventEmitter {
  readonly exits: number[] = [];
  exit(code: number): never {
    this.exits.push(code);
    return undefined as never;
  }
}

function setUp() {
  const input = new FakeTty();
  const output = new FakeScreen();
  const proc = new FakeProcess();
  const raw = new RawTerminal({ input, output }, proc as unknown as NodeJS.Process);
  const keys: string[] = [];
  let resizes = 0;
  let ends = 0;
  raw.start({ keys: (k) => keys.push(k), resize: () => (resizes += 1), end: () => (ends += 1) });
  return { input, output, proc, raw, keys, resizes: () => resizes, ends: () => ends };
}

describe('RawTerminal', () => {
  it('reads keys in raw mode (UTF-8 whole across reads) and restores the tty once', () => {
    const t = setUp();
    expect(t.input.isRaw).toBe(true);
    const euro = Buffer.from('€');
    t.input.write(euro.subarray(0, 1));
    t.input.write(Buffer.concat([euro.subarray(1), Buffer.from('\x03')]));
    t.output.emit('resize');
    expect(t.keys.join('')).toBe('€\x03');
    expect(t.resizes()).toBe(1);
    t.raw.restore();
    t.raw.restore();
    expect(t.input.modes).toEqual([true, false]);
    expect(t.output.text).toBe(RESET_SEQUENCE);
    // Keys after the restore go nowhere; the exit and signal hooks are gone.
    t.input.write('late');
    expect(t.keys.join('')).toBe('€\x03');
    expect(t.proc.listenerCount('exit') + t.proc.listenerCount('SIGTERM')).toBe(0);
  });

  it('restores the tty on SIGTERM and SIGHUP and exits 128+n; at process exit too', () => {
    const term = setUp();
    term.proc.emit('SIGTERM', 'SIGTERM');
    expect(term.input.isRaw).toBe(false);
    expect(term.proc.exits).toEqual([143]);
    const hup = setUp();
    hup.proc.emit('SIGHUP', 'SIGHUP');
    expect(hup.proc.exits).toEqual([129]);
    const exit = setUp();
    exit.proc.emit('exit', 1);
    expect(exit.input.modes).toEqual([true, false]);
  });

  it('a piped input is read without raw mode, and its end is reported', () => {
    const input = new FakeTty();
    input.isTTY = false;
    const raw = new RawTerminal({ input, output: new FakeScreen() }, new FakeProcess() as unknown as NodeJS.Process);
    let ended = false;
    raw.start({ keys: () => undefined, resize: () => undefined, end: () => (ended = true) });
    input.end();
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(input.modes).toEqual([]);
        expect(ended).toBe(true);
        raw.restore();
        resolve();
      }),
    );
  });

  it('announces a size inside the schema bounds; no size: 80×24', () => {
    expect(sizeOf({ columns: 132, rows: 43 })).toEqual({ cols: 132, rows: 43 });
    expect(sizeOf({ columns: 3, rows: 2 })).toEqual({ cols: 10, rows: 4 });
    expect(sizeOf({ columns: 9000, rows: 900 })).toEqual({ cols: 500, rows: 200 });
    expect(sizeOf({})).toEqual({ cols: 80, rows: 24 });
  });
});
