// The shell workers: a few kept warm, more started while commands wait (up to a cap), a worker that
// was cut off replaced, and extra ones let go after a quiet minute. Which command gets a free worker
// is JobScheduler's choice (turns by address, then connection); how long one may keep it is its CPU
// and wall-clock limits, checked here every tick. The kernel shares the cores between the threads,
// and a command past a second of CPU is niced (ShellWorkerHandle), so a busy loop slows nobody's
// short command; each connection runs one command at a time (PracticeSession).
import type { FsHost } from '../fs/fs-host.ts';
import { JobScheduler } from './job-scheduler.ts';
import type { JobSource, SchedulerLimits } from './job-scheduler.ts';
import type { Asker, Cutoff, JobLimits, WorkerSettings } from './shell-worker-handle.ts';
import { ShellWorkerHandle } from './shell-worker-handle.ts';
import type { JobResult, ShellJob } from './shell-job.ts';

/** Workers kept warm and at most, and the caps per source address (JobScheduler). */
export type PoolSize = { warm: number; max: number } & SchedulerLimits;

/** A command line to run: for whom, within which limits, and where it comes from. */
export type PoolRequest = {
  job: ShellJob;
  limits: JobLimits;
  source: JobSource;
  ask?: Asker;
  /**
   * The process `timeout` starts: it goes first and past its address's caps (its parent waits on it),
   * and may take one of the pool's spare workers past `max` (half as many again).
   */
  child?: boolean;
  /** Not held to the waiting cap (cron's jobs). */
  trusted?: boolean;
  /** Gives the command up: taken out of line, or its worker stopped (its connection closed, its parent ended). */
  signal?: AbortSignal;
};

/**
 * 'busy': the source's address already had as many commands waiting as it may; 'cancelled': the
 * request's signal gave it up.
 */
export type PoolOutcome = JobResult | Cutoff | 'busy' | 'cancelled';

/** How often running jobs' CPU time is read. */
const TICK_MS = 100;
/** An extra worker (past the warm ones) idle this long is stopped, giving its memory back. */
const SPARE_IDLE_MS = 60_000;

export class WorkerPool {
  private readonly settings: WorkerSettings;
  private readonly host: FsHost;
  private readonly size: PoolSize;
  private readonly scheduler: JobScheduler<ShellWorkerHandle>;
  private readonly workers = new Set<ShellWorkerHandle>();
  private readonly idle: ShellWorkerHandle[] = [];
  private readonly ticker: NodeJS.Timeout;
  private starting = 0;
  private closed = false;
  /** Whose job each busy worker runs: its CPU time is charged to them as it is used. */
  private readonly sources = new Map<ShellWorkerHandle, JobSource>();

  constructor(settings: WorkerSettings, host: FsHost, size: PoolSize) {
    this.settings = settings;
    this.host = host;
    this.size = size;
    this.scheduler = new JobScheduler({ ...size, total: size.max });
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.ticker.unref();
  }

  /** Starts the warm workers and waits until they can take jobs. */
  async start(): Promise<void> {
    const started: Promise<void>[] = [];
    for (let i = 0; i < this.size.warm; i++) started.push(this.spawn());
    await Promise.all(started);
  }

  /** Workers started and not stopped, how many are running a job, and how many jobs wait. */
  counts(): { workers: number; busy: number; waiting: number } {
    const busy = [...this.workers].filter((w) => w.busy).length;
    return { workers: this.workers.size, busy, waiting: this.scheduler.waiting };
  }

  /** Commands running and waiting per source address. */
  byAddress(): Record<string, { running: number; waiting: number }> {
    return this.scheduler.byAddress();
  }

  /** Runs a command line when its turn comes; never throws. */
  async run(request: PoolRequest): Promise<PoolOutcome> {
    const { signal } = request;
    if (signal?.aborted) return 'cancelled';
    const worker = await new Promise<ShellWorkerHandle | 'busy' | 'cancelled'>((resolve) => {
      const waiting = {
        source: request.source,
        child: request.child ?? false,
        trusted: request.trusted ?? false,
        start: (granted: ShellWorkerHandle) => {
          signal?.removeEventListener('abort', giveUp);
          resolve(granted);
        },
      };
      const giveUp = () => this.scheduler.cancel(waiting) && resolve('cancelled');
      if (!this.scheduler.enqueue(waiting)) return resolve('busy');
      signal?.addEventListener('abort', giveUp, { once: true });
      this.pump();
    });
    if (typeof worker === 'string') return worker;
    // A busy worker never reads a message asking it to stop: giving up a running command stops its thread.
    const stop = () => worker.kill();
    signal?.addEventListener('abort', stop, { once: true });
    this.sources.set(worker, request.source);
    try {
      return await worker.run(request.job, request.limits, request.ask);
    } finally {
      signal?.removeEventListener('abort', stop);
      this.sources.delete(worker);
      this.scheduler.charge(request.source, worker.takeCpuMs());
      this.scheduler.finished(request.source);
      this.release(worker);
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.ticker);
    for (const worker of this.workers) worker.kill();
    this.workers.clear();
  }

  /** Hands idle workers to waiting jobs in the scheduler's order; starts a worker when one is short. */
  private pump(): void {
    while (!this.closed) {
      let worker = this.idle.pop();
      // A spare stopped for being idle leaves `idle` only when its thread has exited.
      while (worker && !worker.alive) worker = this.idle.pop();
      if (!worker) {
        const next = this.scheduler.peek();
        if (!next) return;
        // A child may take one of the spare workers past the cap: its parent's worker sits waiting for it.
        const cap = this.size.max + (next.child ? Math.ceil(this.size.max / 2) : 0);
        if (this.workers.size + this.starting < cap && this.starting < this.scheduler.waiting) void this.spawn();
        return;
      }
      const next = this.scheduler.take();
      if (!next) {
        this.idle.push(worker);
        return;
      }
      next.start(worker);
    }
  }

  private release(worker: ShellWorkerHandle): void {
    if (!worker.alive || this.closed) return;
    // Children's workers past the cap go once no one waits.
    if (this.workers.size > this.size.max && this.scheduler.waiting === 0) {
      this.workers.delete(worker);
      worker.kill();
      return;
    }
    this.idle.push(worker);
    this.pump();
  }

  private async spawn(): Promise<void> {
    if (this.closed) return;
    this.starting++;
    const worker = new ShellWorkerHandle(this.settings, this.host);
    worker.onExit(() => this.retire(worker));
    try {
      await worker.ready;
    } catch {
      this.starting--;
      // Waiting jobs try again a moment later (a thread that cannot start now may next time).
      setTimeout(() => this.pump(), 1_000).unref();
      return;
    }
    this.starting--;
    if (this.closed) return worker.kill();
    this.workers.add(worker);
    this.release(worker);
  }

  /** Reads each running job's CPU time (niced or stopped past its marks) and lets long-idle spares go. */
  private tick(): void {
    const now = Date.now();
    let spare = this.workers.size - this.size.warm;
    for (const worker of this.workers) {
      if (worker.busy) {
        worker.checkCpu();
        // Charged as it is used, not when it ends: a loop that runs for a minute weighs from its first second.
        const source = this.sources.get(worker);
        if (source) this.scheduler.charge(source, worker.takeCpuMs());
      } else if (spare > 0 && worker.alive && now - worker.idleSince > SPARE_IDLE_MS) {
        spare--;
        worker.kill();
      }
    }
  }

  /** A worker that ended (cut off, out of memory, let go) leaves; the pool tops itself back up. */
  private retire(worker: ShellWorkerHandle): void {
    this.workers.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    if (this.closed) return;
    if (this.workers.size + this.starting < this.size.warm) void this.spawn();
    this.pump();
  }
}
