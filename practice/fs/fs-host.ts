// The main thread's side of the shell workers' filesystem: one shared world, seen by each request's
// identity through PermissionFs and charged to its connection's quota.
import type { DiskUsage } from './permission-fs.ts';
import { PermissionFs } from './permission-fs.ts';
import type { FsOperation } from './shell-fs.ts';
import type { SerializedFsError } from '../exec/shell-job.ts';
import type { Identity } from '../world/accounts.ts';
import type { WorldFs } from '../world/world-fs.ts';

export class FsHost {
  private readonly worldFs: WorldFs;
  private readonly usages = new Map<number, DiskUsage>();

  constructor(worldFs: WorldFs) {
    this.worldFs = worldFs;
  }

  /** A connection's permission-checked view, charged to its quota. */
  view(connection: number, who: Identity): PermissionFs {
    const usage = this.usages.get(connection);
    if (!usage) throw Object.assign(new Error('connection closed'), { code: 'EBADF' });
    return new PermissionFs(this.worldFs.fs, this.worldFs.owners, who, usage);
  }

  open(connection: number, usage: DiskUsage): void {
    this.usages.set(connection, usage);
  }

  close(connection: number): void {
    this.usages.delete(connection);
  }

  /** Runs one operation for a worker; errors come back as data, never as a throw. */
  async handle(
    connection: number,
    who: Identity,
    op: FsOperation,
    args: unknown[],
  ): Promise<{ value?: unknown; error?: SerializedFsError }> {
    try {
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
