// The main thread's side of the shell workers' filesystem: each connection plays in one world (the
// shared one, or a run's private one) and sees it through PermissionFs, charged to that world's ledger.
import { PermissionFs } from './permission-fs.ts';
import type { FsOperation, SpawnResult } from './shell-fs.ts';
import type { SerializedFsError } from '../exec/shell-job.ts';
import type { Identity } from '../world/accounts.ts';
import type { RangeWorld } from '../world/range-world.ts';

/** The job that starts a process: its wall-clock time left, its end, and how deep in `timeout`s it runs. */
export type ParentJob = { remainingMs: number; signal: AbortSignal; depth: number };

/** Runs a child process's command line for a connection, as `who` (the range's worker pool). */
export type Spawner = (
  connection: number,
  who: Identity,
  command: string,
  stdin: string,
  cwd: string,
  wallMs: number,
  parent: ParentJob,
) => Promise<SpawnResult>;

export class FsHost {
  private readonly worlds = new Map<number, RangeWorld>();
  /** Each connection's source address (cron's: `cron:<world>`), for the turns of the processes it starts. */
  private readonly addresses = new Map<number, string>();
  /** Set once the worker pool exists (it needs this host first). */
  spawner: Spawner | undefined;
  private readonly logins = new Set<number>();
  private nextConnection = 0;

  /** A connection's permission-checked view of its world. */
  view(connection: number, who: Identity): PermissionFs {
    const world = this.worlds.get(connection);
    if (!world) throw Object.assign(new Error('connection closed'), { code: 'EBADF' });
    return new PermissionFs(world.fs, world.owners, who, world.ledger);
  }

  /** Opens a connection in `world` and returns its number; a login counts as using the world, cron does not. */
  open(world: RangeWorld, address: string, login = true): number {
    const connection = this.nextConnection++;
    this.worlds.set(connection, world);
    this.addresses.set(connection, address);
    if (login) this.logins.add(connection);
    if (login) world.enter();
    return connection;
  }

  close(connection: number): void {
    if (this.logins.delete(connection)) this.worlds.get(connection)?.leave();
    this.worlds.delete(connection);
    this.addresses.delete(connection);
  }

  /** The source address a connection was opened for. */
  addressOf(connection: number): string {
    return this.addresses.get(connection) ?? 'unknown';
  }

  private spawn(connection: number, who: Identity, args: unknown[], parent?: ParentJob): Promise<SpawnResult> {
    if (!this.worlds.has(connection) || !this.spawner || !parent)
      throw Object.assign(new Error('connection closed'), { code: 'EBADF' });
    const [command, stdin, cwd, wallMs] = args as [string, string, string, number];
    return this.spawner(connection, who, command, stdin, cwd, wallMs, parent);
  }

  /** Runs one operation for a worker; errors come back as data, never as a throw. */
  async handle(
    connection: number,
    who: Identity,
    op: FsOperation,
    args: unknown[],
    parent?: ParentJob,
  ): Promise<{ value?: unknown; error?: SerializedFsError }> {
    try {
      if (op === 'spawn') return { value: await this.spawn(connection, who, args, parent) };
      const fs = this.view(connection, who);
      const method = fs[op] as (...a: unknown[]) => unknown;
      return { value: await method.apply(fs, args) };
    } catch (err) {
      const e = err as Error & { code?: string; path?: string; syscall?: string };
      return {
        error: {
          message: e?.message ?? String(err),
          ...(e?.code ? { code: e.code } : {}),
          ...(e?.path ? { path: e.path } : {}),
          ...(e?.syscall ? { syscall: e.syscall } : {}),
        },
      };
    }
  }
}
