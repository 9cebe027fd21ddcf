// What the range's commands see of the filesystem: a just-bash filesystem for one identity, plus the
// owners and permission checks that just-bash's filesystems do not keep.
import type { IFileSystem } from 'just-bash';
import type { Identity } from '../world/accounts.ts';
import type { Ownership } from './ownership.ts';

/** What a child process (`timeout`'s command) gave back; timedOut when it ran past its time. */
export type SpawnResult = { stdout: string; stderr: string; exitCode: number; timedOut: boolean };

export type ShellFs = IFileSystem & {
  readonly who: Identity;
  ownership(path: string): Promise<Ownership>;
  /** Whether `who` may read (4), write (2) or execute (1) `path`, given its mode. */
  may(path: string, mode: number, want: number): Promise<boolean>;
  canAccess(path: string, want: number): Promise<boolean>;
  /** The same filesystem seen by another identity (setuid programs, ssh to another user). */
  as(who: Identity): ShellFs;
  /**
   * Runs a command line as a process of its own, as `who`, in this connection's world: a job in another
   * shell worker, stopped after `wallMs`. It rides on the filesystem's channel to the range's main thread.
   */
  spawn(command: string, stdin: string, cwd: string, wallMs: number): Promise<SpawnResult>;
};

/** The operations a shell worker asks the range's thread to do on its behalf. */
export const FS_OPERATIONS = [
  'readFile',
  'readFileBuffer',
  'writeFile',
  'appendFile',
  'exists',
  'stat',
  'lstat',
  'mkdir',
  'readdir',
  'rm',
  'cp',
  'mv',
  'chmod',
  'symlink',
  'link',
  'readlink',
  'realpath',
  'utimes',
  'ownership',
  'may',
  'canAccess',
  'spawn',
] as const;
export type FsOperation = (typeof FS_OPERATIONS)[number];
