// One SSH connection: the world it plays in, its `nc -l` listeners, and its command lines, run one
// at a time in the range's shell workers with the per-command time, memory and output limits. What it
// writes stays in its world when it leaves, as on a real server.
import type { FsHost } from './fs/fs-host.ts';
import type { WorkerPool } from './exec/worker-pool.ts';
import { capOutput } from './exec/output-chunks.ts';
import type { Asker } from './exec/shell-worker-handle.ts';
import type { OutputChunk } from './exec/shell-job.ts';
import type { Identity } from './world/accounts.ts';
import type { WorldRegistry } from './world/world-registry.ts';

/** Limits that keep one player from hurting the range or other players. */
export type SessionLimits = {
  /** Wall-clock time per command: generous, so a command that waits (for cron's minute) completes. */
  commandTimeoutMs: number;
  /** CPU time per command: what stops a busy loop (the real server's `ulimit -t` does the same). */
  commandCpuMs: number;
  /** Bytes one user may keep in one world (a Unix quota; see WorldBudget for the rest). */
  maxWrittenBytes: number;
  maxOutputBytes: number;
  maxCommandsPerConnection: number;
  /** Heap of the worker thread that runs one command line. */
  maxMemoryMb: number;
};

export const DEFAULT_LIMITS: SessionLimits = {
  commandTimeoutMs: 5 * 60_000,
  commandCpuMs: 10_000,
  maxWrittenBytes: 8 * 1024 * 1024,
  maxOutputBytes: 1024 * 1024,
  maxCommandsPerConnection: 5_000,
  maxMemoryMb: 256,
};

const EMPTY = new Uint8Array(0);

/** 10 s, 5 min: how a limit reads in a message. */
const seconds = (ms: number) => (ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/** A command's result, after limits: exit 124 on timeout, 137 past the memory bound, output capped. */
export type CommandResult = {
  stdout: Uint8Array;
  stderr: string;
  /** Both streams in the order they were written (absent for the range's own messages: stderr alone). */
  output?: OutputChunk[];
  exitCode: number;
  env?: Record<string, string>;
  openShell?: Identity;
};

/** How a command line runs: its stdin, whether at a terminal, and who answers a password prompt. */
export type RunOptions = { stdin?: string; interactive?: boolean; ask?: Asker };

/** Where a connection comes from, and who is told when it starts and ends a command (its idle clock). */
export type SessionSource = { address: string; busy?: (running: boolean) => void };

/** Where an interactive shell is: its directory and variables. */
export type ShellState = { cwd: string; env?: Record<string, string> };

export class PracticeSession {
  private readonly worlds: WorldRegistry;
  private readonly host: FsHost;
  private readonly pool: WorkerPool;
  private readonly sshPort: number;
  private readonly limits: SessionLimits;
  private readonly source: SessionSource;
  /** The connection's number in FsHost once it has chosen its world (its first channel). */
  private id: number | undefined;
  private worldKey: string | undefined;
  private binding: Promise<string | undefined> | undefined;
  private closed = false;
  private listeners: [number, string][] = [];
  private commandsRun = 0;
  /** The run this connection plays for, named by the proxy (PRACTICE_PLAYER); its turns are its own. */
  private player: string | undefined;
  /** Aborted when the connection closes: a command waiting or running for nobody is given up. */
  private readonly gone = new AbortController();
  // Commands of one connection run one after another, so one player holds at most one worker.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    worlds: WorldRegistry,
    host: FsHost,
    pool: WorkerPool,
    sshPort: number,
    limits: SessionLimits,
    source: SessionSource,
  ) {
    this.worlds = worlds;
    this.host = host;
    this.pool = pool;
    this.sshPort = sshPort;
    this.limits = limits;
    this.source = source;
  }

  /**
   * Chooses the connection's world at its first channel: `key`'s private world, or the shared one.
   * Resolves to a refusal to show the player, or undefined. A later channel must name the same world.
   */
  enter(key: string | undefined): Promise<string | undefined> {
    if (this.binding)
      return this.worldKey === key
        ? this.binding
        : Promise.resolve(
            `practice range: this connection plays in ${this.worldKey === undefined ? 'the shared world' : `world ${this.worldKey}`}; open a new connection for another world\n`,
          );
    this.worldKey = key;
    this.binding = this.worlds.open(key).then((world) => {
      if ('refused' in world) {
        // Refused for now (no room): the connection's next channel may ask again.
        this.binding = undefined;
        this.worldKey = undefined;
        return `${world.refused}\n`;
      }
      if (this.closed) return 'practice range: the connection closed\n';
      this.id = this.host.open(world, this.source.address);
      return undefined;
    });
    return this.binding;
  }

  /**
   * Names the run this connection plays for (the proxy's PRACTICE_PLAYER, trusted by address): its commands
   * take turns and meet the per-address caps as a client of its own, not as one of every run behind the proxy.
   * The first name holds for the connection's life.
   */
  playFor(player: string): void {
    this.player ??= player;
  }

  /** The connection leaves: its commands end with it; its files stay in its world (the /tmp sweep cleans old ones). */
  async close(): Promise<void> {
    this.closed = true;
    this.gone.abort();
    await this.queue.catch(() => undefined);
    await this.binding;
    if (this.id !== undefined) this.host.close(this.id);
  }

  /** Reads a file as `who` would (the login's .bashrc), or undefined. */
  async readFile(who: Identity, path: string): Promise<string | undefined> {
    const opened = await this.open(who, path);
    return 'text' in opened ? opened.text : undefined;
  }

  /** Reads a file as `who` would, or says why not (ENOENT, EACCES, EISDIR), for vi's messages. */
  async open(who: Identity, path: string): Promise<{ text: string } | { error: string }> {
    try {
      if (this.id === undefined) throw Object.assign(new Error('no world yet'), { code: 'EBADF' });
      return { text: await this.host.view(this.id, who).readFile(path) };
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return { error: e?.code ?? (/EISDIR|directory/i.test(e?.message ?? '') ? 'EISDIR' : 'ENOENT') };
    }
  }

  /** Runs one command line as `who`; never throws. `shell` carries an interactive shell's state. */
  run(who: Identity, command: string, at: ShellState, options: RunOptions = {}): Promise<CommandResult> {
    const result = this.queue.then(async () => {
      this.source.busy?.(true);
      try {
        return await this.runNow(who, command, at, options);
      } finally {
        this.source.busy?.(false);
      }
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async runNow(who: Identity, command: string, at: ShellState, options: RunOptions): Promise<CommandResult> {
    if (++this.commandsRun > this.limits.maxCommandsPerConnection) {
      return {
        stdout: EMPTY,
        stderr: `practice range: this connection ran ${this.limits.maxCommandsPerConnection} commands, the most one connection may; reconnect\n`,
        exitCode: 1,
      };
    }
    if (this.id === undefined) return { stdout: EMPTY, stderr: 'practice range: no world chosen\n', exitCode: 1 };
    if (this.closed) return { stdout: EMPTY, stderr: 'practice range: the connection closed\n', exitCode: 1 };
    const job = {
      connection: this.id,
      who,
      command,
      stdin: options.stdin ?? '',
      cwd: at.cwd,
      listeners: this.listeners,
      sshPort: this.sshPort,
      interactive: options.interactive ?? false,
      canAsk: options.ask !== undefined,
      ...(at.env ? { env: at.env } : {}),
    };
    const result = await this.pool.run({
      job,
      limits: { wallMs: this.limits.commandTimeoutMs, cpuMs: this.limits.commandCpuMs },
      source: {
        address: this.player === undefined ? this.source.address : `${this.source.address} ${this.player}`,
        connection: this.id,
        user: who.user,
      },
      signal: this.gone.signal,
      ...(options.ask ? { ask: options.ask } : {}),
    });
    if (result === 'cancelled')
      return { stdout: EMPTY, stderr: 'practice range: the connection closed\n', exitCode: 1 };
    if (result === 'busy')
      return {
        stdout: EMPTY,
        stderr:
          'practice range: too many commands are waiting from your address; let some finish (or close idle connections) and try again\n',
        exitCode: 1,
      };
    if (result === 'timeout')
      return {
        stdout: EMPTY,
        stderr: `practice range: command timed out after ${seconds(this.limits.commandTimeoutMs)} of wall-clock time\n`,
        exitCode: 124,
      };
    // As a shell reports a command that SIGXCPU ended (128 + 24) under `ulimit -t`.
    if (result === 'cpu')
      return {
        stdout: EMPTY,
        stderr: `practice range: command stopped after ${seconds(this.limits.commandCpuMs)} of CPU time, the most one command may use (a loop that never ends?)\n`,
        exitCode: 152,
      };
    if (result === 'memory')
      return {
        stdout: EMPTY,
        stderr: `practice range: command ran out of memory (${this.limits.maxMemoryMb} MiB per command) and was killed\n`,
        exitCode: 137,
      };
    if (result === 'crash')
      return { stdout: EMPTY, stderr: 'practice range: the command crashed its shell; try again\n', exitCode: 1 };
    this.listeners = result.listeners;
    return this.capped({
      stdout: result.stdout,
      stderr: result.stderr,
      output: result.output,
      exitCode: result.exitCode,
      ...(result.env ? { env: result.env } : {}),
      ...(result.openShell ? { openShell: result.openShell } : {}),
    });
  }

  private capped(result: CommandResult): CommandResult {
    const cap = this.limits.maxOutputBytes;
    const note = `\n[practice range: output cut at ${cap} bytes]\n`;
    const cut = (s: string) => (s.length > cap ? `${s.slice(0, cap)}${note}` : s);
    const stdout =
      result.stdout.length > cap ? Buffer.concat([result.stdout.subarray(0, cap), Buffer.from(note)]) : result.stdout;
    const output = result.output && capOutput(result.output, cap, note);
    return { ...result, stdout, stderr: cut(result.stderr), ...(output ? { output } : {}) };
  }
}
