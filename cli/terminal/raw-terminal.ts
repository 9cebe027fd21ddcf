// The person's own terminal while they hold a run's shell: raw mode in, bytes out, and a promise that
// it is put back (raw mode off, colours reset, cursor shown) on every way out — detach, a server-side
// close, an error, a signal or process exit — so no shell is ever left without echo.
import type { TerminalSize } from '../../schema/terminal.ts';
import { DEFAULT_TERMINAL_SIZE, terminalSizeSchema } from '../../schema/terminal.ts';

/** What RawTerminal drives: stdin and stdout, or fakes of them in tests. */
export type TerminalStreams = {
  input: {
    readonly isTTY?: boolean;
    setRawMode(mode: boolean): unknown;
    setEncoding(encoding: 'utf8'): unknown;
    on(event: 'data' | 'end', listener: (text: string) => void): unknown;
    off(event: 'data' | 'end', listener: (text: string) => void): unknown;
    resume(): unknown;
    pause(): unknown;
  };
  output: {
    write(text: string): unknown;
    on(event: 'resize', listener: () => void): unknown;
    off(event: 'resize', listener: () => void): unknown;
  };
};

/** The process hooks RawTerminal uses to restore the tty on the way out; tests pass their own. */
export type ProcessHooks = Pick<NodeJS.Process, 'on' | 'off' | 'exit'>;

/** Puts a remote program's leftovers right: default colours, the cursor shown, normal cursor keys. */
export const RESET_SEQUENCE = '\x1b[0m\x1b[?25h\x1b[?1l\x1b>';

const SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;
const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGHUP: 1, SIGQUIT: 3, SIGTERM: 15 };

/** The size to announce for `output`, inside the schema's bounds; a stream that is not a tty: 80×24. */
export function sizeOf(output: { readonly columns?: number; readonly rows?: number }): TerminalSize {
  if (!output.columns || !output.rows) return DEFAULT_TERMINAL_SIZE;
  const { min: minCols = 10, max: maxCols = 500 } = bounds(terminalSizeSchema.shape.cols);
  const { min: minRows = 4, max: maxRows = 200 } = bounds(terminalSizeSchema.shape.rows);
  return {
    cols: Math.min(maxCols, Math.max(minCols, output.columns)),
    rows: Math.min(maxRows, Math.max(minRows, output.rows)),
  };
}

function bounds(schema: { minValue: number | null; maxValue: number | null }) {
  return { min: schema.minValue ?? undefined, max: schema.maxValue ?? undefined };
}

/** Raw keys from the person's terminal until `restore()`, which is safe to call any number of times. */
export class RawTerminal {
  private readonly streams: TerminalStreams;
  private readonly hooks: ProcessHooks;
  private raw = false;
  private reading = false;
  private onKeys: ((text: string) => void) | null = null;
  private onResize: (() => void) | null = null;
  private onEnd: (() => void) | null = null;
  private readonly atExit = () => this.restore();
  private readonly atSignal = (signal: NodeJS.Signals) => {
    this.restore();
    this.hooks.exit(128 + (SIGNAL_NUMBERS[signal as (typeof SIGNALS)[number]] ?? 15));
  };

  constructor(streams: TerminalStreams, hooks: ProcessHooks = process) {
    this.streams = streams;
    this.hooks = hooks;
  }

  /** Whether raw mode is on now. */
  get isRaw(): boolean {
    return this.raw;
  }

  /**
   * Starts reading keys (raw mode when the input is a tty): `keys` gets each read as text (UTF-8 is
   * decoded across reads), `resize` each size change, `end` the end of a piped input.
   */
  start(handlers: { keys: (text: string) => void; resize: () => void; end: () => void }): void {
    if (this.reading) return;
    this.reading = true;
    this.hooks.on('exit', this.atExit);
    for (const s of SIGNALS) this.hooks.on(s, this.atSignal);
    const { input, output } = this.streams;
    if (input.isTTY) {
      input.setRawMode(true);
      this.raw = true;
    }
    this.onKeys = handlers.keys;
    this.onResize = handlers.resize;
    this.onEnd = handlers.end;
    input.setEncoding('utf8');
    input.on('data', this.onKeys);
    input.on('end', this.onEnd);
    output.on('resize', this.onResize);
    input.resume();
  }

  /** Raw mode off, the remote program's modes reset, keys no longer read, hooks removed. */
  restore(): void {
    if (!this.reading) return;
    this.reading = false;
    const { input, output } = this.streams;
    if (this.onKeys) input.off('data', this.onKeys);
    if (this.onEnd) input.off('end', this.onEnd);
    if (this.onResize) output.off('resize', this.onResize);
    if (this.raw) {
      output.write(RESET_SEQUENCE);
      input.setRawMode(false);
      this.raw = false;
    }
    input.pause();
    this.hooks.off('exit', this.atExit);
    for (const s of SIGNALS) this.hooks.off(s, this.atSignal);
  }
}
