// The shell workers: a few kept warm, more started when every one is busy (up to a cap), and a
// worker that was cut off replaced. Each connection runs one command at a time (PracticeSession), so
// one player can hold at most one worker, however busy its commands keep it.
import type { FsHost } from '../fs/fs-host.ts';
import type { Asker, Cutoff, WorkerSettings } from './shell-worker-handle.ts';
import { ShellWorkerHandle } from './shell-worker-handle.ts';
import type { JobResult, ShellJob } from './shell-job.ts';

export type PoolSize = { warm: number; max: number };

export class WorkerPool {
  private readonly settings: WorkerSettings;
  private readonly host: FsHost;
  private readonly size: PoolSize;
  private readonly workers = new Set<ShellWorkerHandle>();
  private readonly idle: ShellWorkerHandle[] = [];
  private readonly waiting: ((worker: ShellWorkerHandle) => void)[] = [];
  private starting = 0;
  private closed = false;

  constructor(settings: WorkerSettings, host: FsHost, size: PoolSize) {
    this.settings = settings;
    this.host = host;
    this.size = size;
  }

  /** Starts the warm workers and waits until they can take jobs. */
  async start(): Promise<void> {
    const started: Promise<void>[] = [];
    for (let i = 0; i < this.size.warm; i++) started.push(this.spawn());
    await Promise.all(started);
  }

  /** Workers started and not stopped, and how many of them are running a job. */
  counts(): { workers: number; busy: number } {
    return { workers: this.workers.size, busy: [...this.workers].filter((w) => w.busy).length };
  }

  async run(job: ShellJob, timeoutMs: number, ask?: Asker): Promise<JobResult | Cutoff> {
    const worker = await this.acquire();
    try {
      return await worker.run(job, timeoutMs, ask);
    } finally {
      this.release(worker);
    }
  }

  close(): void {
    this.closed = true;
    for (const worker of this.workers) worker.kill();
    this.workers.clear();
  }

  private acquire(): Promise<ShellWorkerHandle> {
    const worker = this.idle.pop();
    if (worker) return Promise.resolve(worker);
    if (this.workers.size + this.starting < this.size.max) void this.spawn();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(worker: ShellWorkerHandle): void {
    if (!worker.alive || this.closed) return;
    const next = this.waiting.shift();
    if (next) next(worker);
    else this.idle.push(worker);
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
      return;
    }
    this.starting--;
    if (this.closed) return worker.kill();
    this.workers.add(worker);
    this.release(worker);
  }

  /** A worker that ended (cut off, out of memory) leaves; the pool tops itself back up. */
  private retire(worker: ShellWorkerHandle): void {
    this.workers.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    if (this.closed) return;
    if (this.workers.size + this.starting < this.size.warm || this.waiting.length > 0) void this.spawn();
  }
}
