// What passes between the range's main thread and a shell worker. Both sides are this package's
// own code in one process, so these are plain types, not a validated boundary.
import type { FsOperation } from '../fs/shell-fs.ts';
import type { Identity } from '../world/accounts.ts';

/** One command line to run for one connection. */
export type ShellJob = {
  connection: number;
  who: Identity;
  command: string;
  stdin: string;
  cwd: string;
  /** The interactive shell's variables, kept between its commands. */
  env?: Record<string, string>;
  /** Ports armed by `nc -l` on this connection, with what the listener will send. */
  listeners: [number, string][];
  sshPort: number;
  /** A terminal session: `ssh` without a command opens a nested login instead of running one. */
  interactive: boolean;
  /** Whether a person at a terminal can answer a password prompt (ssh, git over ssh). */
  canAsk: boolean;
  /** How many `timeout` processes this job runs within (0 for a command line of its own). */
  depth?: number;
};

/** One of the two streams a command writes to the terminal. */
export type OutputStream = 'stdout' | 'stderr';

/** What a command line wrote to one stream at one time; a list of them keeps the order of the writes. */
export type OutputChunk = { stream: OutputStream; bytes: Uint8Array };

export type JobResult = {
  /** Bytes, as a terminal gets them: a command's binary output is not text (TerminalOutput). */
  stdout: Uint8Array;
  stderr: string;
  /** Both streams in the order the command line wrote them, for a terminal or an exec channel. */
  output: OutputChunk[];
  exitCode: number;
  env?: Record<string, string>;
  listeners: [number, string][];
  /** Set when the command logged in as someone else in the terminal (`ssh` with no command). */
  openShell?: Identity;
};

export type SerializedFsError = { code?: string; message: string; path?: string; syscall?: string };

export type ToWorker =
  | { type: 'exec'; id: number; job: ShellJob }
  | { type: 'fs-reply'; id: number; value?: unknown; error?: SerializedFsError }
  | { type: 'ask-reply'; id: number; answer: string | null };

export type FromWorker =
  /** The worker's kernel thread id, so the main thread can read its CPU time and set its priority. */
  | { type: 'ready'; tid?: number }
  | { type: 'done'; id: number; result: JobResult }
  | { type: 'fs'; id: number; connection: number; who: Identity; op: FsOperation; args: unknown[] }
  | { type: 'ask'; id: number; prompt: string };
