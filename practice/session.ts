// One SSH connection: its quota, its `nc -l` listeners, and its command lines, run one at a time in
// the range's shell workers with the per-command time, memory and output limits.
import type { FsHost } from './fs/fs-host.ts';
import type { DiskUsage } from './fs/permission-fs.ts';
import type { WorkerPool } from './exec/worker-pool.ts';
import type { Asker } from './exec/shell-worker-handle.ts';
import type { Identity } from './world/accounts.ts';
import type { WorldFs } from './world/world-fs.ts';

/** Limits that keep one player from hurting the range or other players. */
export type SessionLimits = {
  commandTimeoutMs: number;
  /** Bytes one connection may keep on the shared filesystem. */
  maxWrittenBytes: number;
  maxOutputBytes: number;
  maxCommandsPerConnection: number;
  /** Heap of the worker thread that runs one command line. */
  maxMemoryMb: number;
};

export const DEFAULT_LIMITS: SessionLimits = {
  commandTimeoutMs: 10_000,
  maxWrittenBytes: 32 * 1024 * 1024,
  maxOutputBytes: 1024 * 1024,
  maxCommandsPerConnection: 5_000,
  maxMemoryMb: 256,
};

const EMPTY = new Uint8Array(0);

/** A command's result, after limits: exit 124 on timeout, 137 past the memory bound, output capped. */
export type CommandResult = {
  stdout: Uint8Array;
  stderr: string;
  exitCode: number;
  env?: Record<string, string>;
  openShell?: Identity;
};

/** How a command line runs: its stdin, whether at a terminal, and who answers a password prompt. */
export type RunOptions = { stdin?: string; interactive?: boolean; ask?: Asker };

/** Where an interactive shell is: its directory and variables. */
export type ShellState = { cwd: string; env?: Record<string, string> };

let nextConnection = 0;

export class PracticeSession {
  private readonly id = nextConnection++;
  private readonly worldFs: WorldFs;
  private readonly host: FsHost;
  private readonly pool: WorkerPool;
  private readonly sshPort: number;
  private readonly limits: SessionLimits;
  private readonly usage: DiskUsage;
  private listeners: [number, string][] = [];
  private commandsRun = 0;
  // Commands of one connection run one after another, so one player holds at most one worker.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(worldFs: WorldFs, host: FsHost, pool: WorkerPool, sshPort: number, limits: SessionLimits) {
    this.worldFs = worldFs;
    this.host = host;
    this.pool = pool;
    this.sshPort = sshPort;
    this.limits = limits;
    this.usage = { bytes: 0, limit: limits.maxWrittenBytes, created: new Map() };
    host.open(this.id, this.usage);
  }

  /** Removes what this connection created, deepest first, as /tmp cleaning would. */
  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    this.host.close(this.id);
    const paths = [...this.usage.created.keys()].sort((a, b) => b.length - a.length);
    for (const path of paths) await this.worldFs.fs.rm(path, { recursive: true, force: true }).catch(() => undefined);
    for (const path of paths) this.worldFs.owners.delete(path);
  }

  /** Reads a file as `who` would (the login's .bashrc), or undefined. */
  async readFile(who: Identity, path: string): Promise<string | undefined> {
    const opened = await this.open(who, path);
    return 'text' in opened ? opened.text : undefined;
  }

  /** Reads a file as `who` would, or says why not (ENOENT, EACCES, EISDIR), for vi's messages. */
  async open(who: Identity, path: string): Promise<{ text: string } | { error: string }> {
    try {
      return { text: await this.host.view(this.id, who).readFile(path) };
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return { error: e?.code ?? (/EISDIR|directory/i.test(e?.message ?? '') ? 'EISDIR' : 'ENOENT') };
    }
  }

  /** Runs one command line as `who`; never throws. `shell` carries an interactive shell's state. */
  run(who: Identity, command: string, at: ShellState, options: RunOptions = {}): Promise<CommandResult> {
    const result = this.queue.then(() => this.runNow(who, command, at, options));
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
    const result = await this.pool.run(job, this.limits.commandTimeoutMs, options.ask);
    if (result === 'timeout')
      return {
        stdout: EMPTY,
        stderr: `practice range: command timed out after ${this.limits.commandTimeoutMs / 1000} s\n`,
        exitCode: 124,
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
    return { ...result, stdout, stderr: cut(result.stderr) };
  }
}
