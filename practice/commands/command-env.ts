// What the range's own commands can reach: this shell's permission-checked filesystem, the world
// (services, keys, passwords) and the session (listeners armed with nc -l, shells as other users).
import type { ExecResult } from 'just-bash';
import { latin1FromBytes } from 'just-bash';
import type { ShellFs } from '../fs/shell-fs.ts';
import type { Identity } from '../world/accounts.ts';
import type { World } from '../world/world.ts';

/** Per-connection state shared by every shell of the connection. */
export type SessionState = {
  /** Ports armed by `nc -l`, with the text the listener will send to whoever connects. */
  listeners: Map<number, string>;
  /** The port the range's SSH server listens on, for `ssh -p`. */
  sshPort: number;
  /** Set by an interactive shell: continue the terminal session as another user (ssh without a command). */
  openShell?: (who: Identity) => string;
};

export type CommandEnv = {
  fs: ShellFs;
  world: World;
  session: SessionState;
  /** Runs a command line as another identity (setuid programs, ssh to another user). */
  runAs: (who: Identity, command: string, stdin: string, cwd: string) => Promise<ExecResult>;
  /** Asks the person at the terminal for a hidden line (a password); absent without a terminal. */
  ask?: (prompt: string) => Promise<string | null>;
};

/** "Permission denied" or "No such file or directory", as coreutils say it. */
export function describeFsError(err: unknown): string {
  const code = (err as { code?: string } | null)?.code;
  if (code === 'EACCES') return 'Permission denied';
  if (code === 'EPERM') return 'Operation not permitted';
  if (code === 'EISDIR') return 'Is a directory';
  const message = err instanceof Error ? err.message : String(err);
  if (/EACCES|permission denied/i.test(message)) return 'Permission denied';
  if (/EISDIR|is a directory/i.test(message)) return 'Is a directory';
  return 'No such file or directory';
}

/** Raw bytes on stdout (binary-safe through pipes and redirections). */
export function binary(bytes: Uint8Array | string, stderr = '', exitCode = 0): ExecResult {
  const stdout = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('latin1');
  return { stdout, stdoutKind: 'bytes', stdoutEncoding: 'binary', stderr, exitCode };
}

/** stdin as bytes. */
export function stdinBytes(stdin: Parameters<typeof latin1FromBytes>[0]): Uint8Array {
  return Buffer.from(latin1FromBytes(stdin), 'latin1');
}

export function ok(stdout: string, stderr = ''): ExecResult {
  return { stdout, stderr, exitCode: 0 };
}

export function fail(stderr: string, exitCode = 1, stdout = ''): ExecResult {
  return { stdout, stderr: stderr.endsWith('\n') || stderr === '' ? stderr : `${stderr}\n`, exitCode };
}

/** Splits "-abc" style short flags and collects operands; `--` ends options. */
export function parseFlags(
  args: string[],
  withValue: string[] = [],
): { flags: Map<string, string | true>; operands: string[] } {
  const flags = new Map<string, string | true>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--') && arg.length > 2) {
      const [name, value] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (value !== undefined) flags.set(name, value);
      else if (withValue.includes(name)) flags.set(name, args[++i] ?? '');
      else flags.set(name, true);
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const flag = arg[j]!;
        if (withValue.includes(flag)) {
          flags.set(flag, arg.slice(j + 1) || (args[++i] ?? ''));
          break;
        }
        flags.set(flag, true);
      }
    } else operands.push(arg);
  }
  return { flags, operands };
}
