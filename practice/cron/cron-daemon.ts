// cron for the range: reads /etc/cron.d as the world has it, runs each `@reboot` job once at start
// and each `* * * * *` job every interval (a minute by default, shorter in tests), as the job's user,
// in the range's shell workers. Other schedules are not run; docs/practice-range.md says so.
import type { FsHost } from '../fs/fs-host.ts';
import type { DiskUsage } from '../fs/permission-fs.ts';
import type { WorkerPool } from '../exec/worker-pool.ts';
import { loginIdentity, userExists } from '../world/accounts.ts';
import type { WorldFs } from '../world/world-fs.ts';

export type CronJob = { user: string; command: string; atBoot: boolean; everyMinute: boolean };

/** The jobs of a crontab in /etc/cron.d's format (schedule, user, command). */
export function parseCronTab(text: string): CronJob[] {
  const jobs: CronJob[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const boot = /^@reboot\s+(\S+)\s+(.+)$/.exec(line);
    if (boot) {
      jobs.push({ user: boot[1]!, command: boot[2]!, atBoot: true, everyMinute: false });
      continue;
    }
    const timed = /^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(.+)$/.exec(line);
    if (timed)
      jobs.push({
        user: timed[6]!,
        command: timed[7]!,
        atBoot: false,
        everyMinute: timed.slice(1, 6).every((f) => f === '*'),
      });
  }
  return jobs;
}

/** The connection number cron's jobs are charged to (players' connections count up from 0). */
const CRON_CONNECTION = -1;

export class CronDaemon {
  private readonly worldFs: WorldFs;
  private readonly pool: WorkerPool;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private jobs: CronJob[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private ticks = 0;

  constructor(worldFs: WorldFs, host: FsHost, pool: WorkerPool, options: { intervalMs: number; timeoutMs: number }) {
    this.worldFs = worldFs;
    this.pool = pool;
    this.intervalMs = options.intervalMs;
    this.timeoutMs = options.timeoutMs;
    // cron's own files are the system's, not a player's: a large quota, never cleaned up.
    const usage: DiskUsage = { bytes: 0, limit: 256 * 1024 * 1024, created: new Map() };
    host.open(CRON_CONNECTION, usage);
  }

  /** Reads the crontabs, runs the boot jobs, and starts the clock. */
  async start(): Promise<void> {
    const dir = '/etc/cron.d';
    for (const name of (await this.worldFs.fs.readdir(dir)).sort()) {
      if (name.startsWith('.')) continue;
      this.jobs.push(
        ...parseCronTab(await this.worldFs.fs.readFile(`${dir}/${name}`)).filter((job) => userExists(job.user)),
      );
    }
    await this.runJobs((job) => job.atBoot);
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** How many scheduled rounds have finished (tests wait on it). */
  get rounds(): number {
    return this.ticks;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    // A round still running (a slow job) makes this tick skip; real cron would start an overlapping round.
    if (this.running) return;
    this.running = this.runJobs((job) => job.everyMinute).finally(() => {
      this.running = undefined;
      this.ticks++;
    });
  }

  private async runJobs(which: (job: CronJob) => boolean): Promise<void> {
    for (const job of this.jobs.filter(which)) {
      const who = loginIdentity(job.user);
      await this.pool.run(
        {
          connection: CRON_CONNECTION,
          who,
          command: job.command,
          stdin: '',
          cwd: `/home/${job.user}`,
          listeners: [],
          sshPort: 0,
          interactive: false,
          canAsk: false,
        },
        this.timeoutMs,
      );
    }
  }
}
