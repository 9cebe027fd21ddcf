// The filesystem as a shell worker sees it: every operation goes to the range's main thread, which
// holds the one shared world and checks permissions and quotas there. A worker that is cut off
// (timeout, memory) therefore loses nothing but the command it was running.
import type { IFileSystem } from 'just-bash';
import type { OutputStream } from '../exec/shell-job.ts';
import { terminalStream } from '../exec/terminal-output.ts';
import type { Identity } from '../world/accounts.ts';
import type { Ownership } from './ownership.ts';
import type { FsOperation, ShellFs, SpawnResult } from './shell-fs.ts';

/** Sends one operation to the main thread and resolves with its answer (or its error). */
export type FsCall = (who: Identity, op: FsOperation, args: unknown[]) => Promise<unknown>;

type Fs = IFileSystem;

/** Hands a write to one of the terminal's paths to the command line's TerminalOutput. */
export type TerminalWrite = (stream: OutputStream, content: string | Uint8Array, options: unknown) => void;

/** A command's stub in /bin or /usr/bin, which no player can write. */
export function isCommandStub(path: string): boolean {
  return /^\/(usr\/)?bin\/[^/]+$/.test(path);
}

export class RemoteFs implements ShellFs {
  readonly who: Identity;
  private readonly call: FsCall;
  // resolvePath is pure path arithmetic, and /bin and /usr/bin (root's, the same stubs in every
  // world) are read on every command lookup: a local copy answers both without a round trip.
  private readonly paths: Fs;

  // The player's terminal, for the shell that runs the player's command line (TerminalOutput).
  private readonly tty: TerminalWrite | undefined;

  constructor(who: Identity, call: FsCall, paths: Fs, tty?: TerminalWrite) {
    this.who = who;
    this.call = call;
    this.paths = paths;
    this.tty = tty;
  }

  as(who: Identity): ShellFs {
    return new RemoteFs(who, this.call, this.paths);
  }

  private send<T>(op: FsOperation, ...args: unknown[]): Promise<T> {
    return this.call(this.who, op, args) as Promise<T>;
  }

  ownership(path: string): Promise<Ownership> {
    return this.send('ownership', path);
  }
  may(path: string, mode: number, want: number): Promise<boolean> {
    return this.send('may', path, mode, want);
  }
  canAccess(path: string, want: number): Promise<boolean> {
    return this.send('canAccess', path, want);
  }
  spawn(command: string, stdin: string, cwd: string, wallMs: number): Promise<SpawnResult> {
    return this.send('spawn', command, stdin, cwd, wallMs);
  }
  readFile(...args: Parameters<Fs['readFile']>): ReturnType<Fs['readFile']> {
    return this.send('readFile', ...args);
  }
  readFileBuffer(path: string): Promise<Uint8Array> {
    return this.send('readFileBuffer', path);
  }
  writeFile(...args: Parameters<Fs['writeFile']>): Promise<void> {
    const stream = this.tty && terminalStream(args[0]);
    if (stream) return Promise.resolve(this.tty?.(stream, args[1], args[2]));
    return this.send('writeFile', ...args);
  }
  appendFile(...args: Parameters<Fs['appendFile']>): Promise<void> {
    const stream = this.tty && terminalStream(args[0]);
    if (stream) return Promise.resolve(this.tty?.(stream, args[1], args[2]));
    return this.send('appendFile', ...args);
  }
  exists(path: string): Promise<boolean> {
    return isCommandStub(path) ? this.paths.exists(path) : this.send('exists', path);
  }
  stat(path: string): ReturnType<Fs['stat']> {
    return isCommandStub(path) ? this.paths.stat(path) : this.send('stat', path);
  }
  lstat(path: string): ReturnType<Fs['lstat']> {
    return this.send('lstat', path);
  }
  mkdir(...args: Parameters<Fs['mkdir']>): Promise<void> {
    return this.send('mkdir', ...args);
  }
  readdir(path: string): Promise<string[]> {
    return this.send('readdir', path);
  }
  rm(...args: Parameters<Fs['rm']>): Promise<void> {
    return this.send('rm', ...args);
  }
  cp(...args: Parameters<Fs['cp']>): Promise<void> {
    return this.send('cp', ...args);
  }
  mv(src: string, dest: string): Promise<void> {
    return this.send('mv', src, dest);
  }
  chmod(path: string, mode: number): Promise<void> {
    return this.send('chmod', path, mode);
  }
  symlink(target: string, linkPath: string): Promise<void> {
    return this.send('symlink', target, linkPath);
  }
  link(existingPath: string, newPath: string): Promise<void> {
    return this.send('link', existingPath, newPath);
  }
  readlink(path: string): Promise<string> {
    return this.send('readlink', path);
  }
  realpath(path: string): Promise<string> {
    return this.send('realpath', path);
  }
  utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    return this.send('utimes', path, atime, mtime);
  }
  resolvePath(base: string, path: string): string {
    return this.paths.resolvePath(base, path);
  }
  /** Only just-bash's own `ls` walks every path, and the range replaces it with its own. */
  getAllPaths(): string[] {
    return [];
  }
}
