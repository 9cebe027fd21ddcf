// The processes a command starts (`timeout`'s command, a cron spool script) as jobs of their own in
// the worker pool: each in a worker of its own with its own CPU time, so a busy loop is stopped alone.
// A process lives within its parent: it takes its turn as its parent's address, its wall-clock time
// is at most what its parent has left, it ends when its parent does, and nesting stops at MAX_DEPTH.
import type { FsHost, Spawner } from '../fs/fs-host.ts';
import type { SessionLimits } from '../session.ts';
import type { WorkerPool } from './worker-pool.ts';

/** `timeout` within `timeout` within a command line: deeper, the process is refused. */
export const MAX_DEPTH = 2;

const WHY = {
  memory: 'ran out of memory',
  cpu: 'used all its CPU time',
  crash: 'crashed',
  busy: 'could not start',
  cancelled: 'ended with the command that started it',
};

/** A Spawner for FsHost over `pool`. */
export function processSpawner(pool: WorkerPool, host: FsHost, limits: SessionLimits, sshPort: () => number): Spawner {
  return async (connection, who, command, stdin, cwd, wallMs, parent) => {
    if (parent.depth >= MAX_DEPTH)
      return {
        stdout: '',
        stderr: `timeout: the practice range runs timeout at most ${MAX_DEPTH} deep within one command line\n`,
        exitCode: 125,
        timedOut: false,
      };
    // GNU's `timeout 0` sets no limit; here the parent's own limit always holds.
    const limit = wallMs > 0 ? Math.min(wallMs, parent.remainingMs) : parent.remainingMs;
    const result = await pool.run({
      job: {
        connection,
        who,
        command,
        stdin,
        cwd,
        listeners: [],
        sshPort: sshPort(),
        interactive: false,
        canAsk: false,
        depth: parent.depth + 1,
      },
      limits: { wallMs: Math.max(1, limit), cpuMs: limits.commandCpuMs },
      source: { address: host.addressOf(connection), connection, user: who.user },
      child: true,
      signal: parent.signal,
    });
    if (result === 'timeout') return { stdout: '', stderr: '', exitCode: 124, timedOut: true };
    if (typeof result === 'string')
      return {
        stdout: '',
        stderr: `practice range: the command ${WHY[result]}\n`,
        // As a shell reports SIGXCPU (128 + 24) and SIGKILL (128 + 9).
        exitCode: result === 'cpu' ? 152 : 137,
        timedOut: false,
      };
    return {
      stdout: Buffer.from(result.stdout).toString('utf8'),
      stderr: result.stderr,
      exitCode: result.exitCode,
      timedOut: false,
    };
  };
}
