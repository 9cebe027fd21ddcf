// cron for one world: reads /etc/cron.d as the world has it, runs each `@reboot` job once at start
// and each `* * * * *` job every interval (a minute by default, shorter in tests), as the job's user,
// in the range's shell workers. Other schedules are not run; docs/practice-range.md says so. Each job
// runs on its own, so one that hangs holds up only its own next run, never the other jobs.
import type { FsHost } from '../fs/fs-host.ts';
import type { WorkerPool } from '../exec/worker-pool.ts';
import { loginIdentity, userExists } from '../world/accounts.ts';
import type { RangeWorld } from '../world/range-world.ts';

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

/** A private world nobody has logged in to for this long rests: its cron waits for the next login. */
const RESTS_AFTER_MS = 10 * 60_000;

export class CronDaemon {
  private readonly world: RangeWorld;
  private readonly host: FsHost;
  private readonly pool: WorkerPool;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly cpuMs: number;
  /** cron's connection in FsHost: its jobs are charged to their users, as on a real host. */
  private readonly connection: number;
  /** Each world's cron takes its turns as an address of its own, so one world's jobs cannot hold up another's. */
  private readonly address: string;
  private jobs: CronJob[] = [];
  private readonly running = new Set<CronJob>();
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;

  constructor(
    world: RangeWorld,
    host: FsHost,
    pool: WorkerPool,
    options: { intervalMs: number; timeoutMs: number; cpuMs: number },
  ) {
    this.world = world;
    this.host = host;
    this.pool = pool;
    this.intervalMs = options.intervalMs;
    this.timeoutMs = options.timeoutMs;
    this.cpuMs = options.cpuMs;
    this.address = `cron:${world.key ?? 'shared'}`;
    this.connection = host.open(world, this.address, false);
  }

  /** Reads the crontabs, runs the boot jobs, and starts the clock. */
  async start(): Promise<void> {
    const dir = '/etc/cron.d';
    for (const name of (await this.world.fs.readdir(dir)).sort()) {
      if (name.startsWith('.')) continue;
      this.jobs.push(
        ...parseCronTab(await this.world.fs.readFile(`${dir}/${name}`)).filter((job) => userExists(job.user)),
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
    this.host.close(this.connection);
  }

  private tick(): void {
    if (this.world.key !== undefined && this.world.idleFor() >= RESTS_AFTER_MS) return;
    void this.runJobs((job) => job.everyMinute).finally(() => this.ticks++);
  }

  /** Runs the chosen jobs side by side; a job whose last run has not ended skips this one. */
  private async runJobs(which: (job: CronJob) => boolean): Promise<void> {
    const due = this.jobs.filter((job) => which(job) && !this.running.has(job));
    await Promise.all(due.map((job) => this.runJob(job)));
  }

  private async runJob(job: CronJob): Promise<void> {
    this.running.add(job);
    try {
      const who = loginIdentity(job.user);
      await this.pool.run({
        job: {
          connection: this.connection,
          who,
          command: job.command,
          stdin: '',
          cwd: `/home/${job.user}`,
          listeners: [],
          sshPort: 0,
          interactive: false,
          canAsk: false,
        },
        limits: { wallMs: this.timeoutMs, cpuMs: this.cpuMs },
        source: { address: this.address, connection: this.connection, user: job.user },
        trusted: true,
      });
    } finally {
      this.running.delete(job);
    }
  }
}
