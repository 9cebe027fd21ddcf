// The main thread's handle on one shell worker: starts it, gives it a job, answers its filesystem
// calls, and cuts it off when the job runs past its CPU time, its wall-clock time or its memory.
import { Worker } from 'node:worker_threads';
import type { FsHost } from '../fs/fs-host.ts';
import type { FromWorker, JobResult, ShellJob, ToWorker } from './shell-job.ts';
import { ThreadClock } from './thread-clock.ts';

export type WorkerSettings = { seed: string; maxOutputBytes: number; memoryMb: number };

/** One job's limits: CPU time (what stops a busy loop) and wall-clock time (what stops a wait). */
export type JobLimits = { cpuMs: number; wallMs: number };

/** Why a job ended without the worker's answer. */
export type Cutoff = 'timeout' | 'cpu' | 'memory' | 'crash';

/** Past this much CPU time a job runs at the lowest priority, so short commands always get a core first. */
const LOW_PRIORITY_AFTER_MS = 1_000;

/** Asks the person at the terminal for a hidden line; null when nobody answers. */
export type Asker = (prompt: string) => Promise<string | null>;

export class ShellWorkerHandle {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly host: FsHost;
  private current:
    | {
        id: number;
        finish: (result: JobResult | Cutoff) => void;
        ask?: Asker;
        pause: () => void;
        resume: () => void;
        cpuAtStart: number;
        cpuMs: number;
        /** When the wall-clock limit falls (moved on while a prompt waits). */
        deadline: () => number;
        /** Aborted when the job ends: the processes it started (`timeout`'s) end with it. */
        ended: AbortController;
        depth: number;
      }
    | undefined;
  private clock: ThreadClock | undefined;
  private lowPriority = false;
  /** CPU time of the current (or last) job already handed out by takeCpuMs. */
  private cpuTaken = 0;
  /** CPU time the last job used in all. */
  private lastJobCpuMs = 0;
  /** When the worker last finished a job (the pool lets long-idle extra workers go). */
  idleSince = Date.now();
  private nextJob = 0;
  private dead = false;
  private ended = false;
  private exitHandlers: (() => void)[] = [];

  constructor(settings: WorkerSettings, host: FsHost) {
    this.host = host;
    this.worker = new Worker(new URL('./shell-worker.ts', import.meta.url), {
      workerData: { seed: settings.seed, maxOutputBytes: settings.maxOutputBytes },
      resourceLimits: {
        maxOldGenerationSizeMb: settings.memoryMb,
        maxYoungGenerationSizeMb: Math.min(32, Math.max(4, settings.memoryMb / 8)),
      },
      // The worker must not inherit the host's environment: nothing a player types should see it.
      env: {},
    });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', (message: FromWorker) => {
        this.clock = new ThreadClock(this.worker, message.type === 'ready' ? message.tid : undefined);
        resolve();
      });
      this.worker.once('error', reject);
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    this.worker.on('error', (err) =>
      this.end((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash'),
    );
    this.worker.on('exit', () => this.end('crash'));
  }

  get alive(): boolean {
    return !this.dead;
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  onExit(handler: () => void): void {
    this.exitHandlers.push(handler);
  }

  /**
   * Runs a job. Past its wall-clock time the worker is stopped and the answer is 'timeout'; past its
   * CPU time (checked by checkCpu) 'cpu'.
   */
  run(job: ShellJob, limits: JobLimits, ask?: Asker): Promise<JobResult | Cutoff> {
    if (this.current) throw new Error('shell worker is busy');
    const id = this.nextJob++;
    return new Promise((resolve) => {
      // The clock stops while a person types a password: the limit is on the command, not on them.
      let left = limits.wallMs;
      let started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        started = Date.now();
        timer = setTimeout(() => {
          // A command that keeps the CPU busy never reads a message, so the thread itself is stopped.
          this.kill();
          finish('timeout');
        }, left);
      };
      const finish = (result: JobResult | Cutoff) => {
        if (this.current?.id !== id) return;
        clearTimeout(timer);
        // A job stopped for its CPU time used all of it; the thread may be gone before it can be read.
        this.lastJobCpuMs = result === 'cpu' ? Math.max(this.lastJobCpuMs, limits.cpuMs) : this.jobCpuMs();
        this.current.ended.abort();
        this.current = undefined;
        this.idleSince = Date.now();
        // Back to the usual priority for the next job; a kernel that will not allow it retires the thread.
        if (this.lowPriority && !this.dead) {
          this.lowPriority = false;
          if (!this.clock?.nice(0)) this.kill();
        }
        resolve(result);
      };
      const pause = () => {
        clearTimeout(timer);
        left -= Date.now() - started;
      };
      arm();
      this.cpuTaken = 0;
      const cpuAtStart = this.clock?.cpuMs() ?? 0;
      this.current = {
        id,
        finish,
        pause,
        resume: arm,
        cpuAtStart,
        cpuMs: limits.cpuMs,
        deadline: () => started + left,
        ended: new AbortController(),
        depth: job.depth ?? 0,
        ...(ask ? { ask } : {}),
      };
      this.send({ type: 'exec', id, job });
    });
  }

  /**
   * Called every tick while a job runs: reads its CPU time once; past LOW_PRIORITY_AFTER_MS the thread
   * is niced, past the job's CPU time it is stopped (a busy thread never reads a message asking it to stop).
   */
  checkCpu(): void {
    const current = this.current;
    if (!current) return;
    const used = this.jobCpuMs();
    this.lastJobCpuMs = used;
    if (used >= current.cpuMs) {
      this.kill();
      current.finish('cpu');
    } else if (!this.lowPriority && used >= LOW_PRIORITY_AFTER_MS) {
      this.lowPriority = this.clock?.nice(19) ?? false;
    }
  }

  /** CPU time the current or last job used since this was last asked, as checkCpu and the job's end read it. */
  takeCpuMs(): number {
    const fresh = Math.max(0, this.lastJobCpuMs - this.cpuTaken);
    this.cpuTaken += fresh;
    return fresh;
  }

  private jobCpuMs(): number {
    return this.current && this.clock ? this.clock.cpuMs() - this.current.cpuAtStart : 0;
  }

  kill(): void {
    this.dead = true;
    void this.worker.terminate();
  }

  private send(message: ToWorker): void {
    if (!this.dead) this.worker.postMessage(message);
  }

  private receive(message: FromWorker): void {
    if (message.type === 'done') this.current?.id === message.id && this.current.finish(message.result);
    else if (message.type === 'ask') this.answer(message.id, message.prompt);
    else if (message.type === 'fs') {
      const current = this.current;
      // A process the job starts (`timeout`'s) lives within the job: its time and its life.
      const parent = current && {
        remainingMs: Math.max(0, current.deadline() - Date.now()),
        signal: current.ended.signal,
        depth: current.depth,
      };
      void this.host
        .handle(message.connection, message.who, message.op, message.args, parent)
        .then((reply) => this.send({ type: 'fs-reply', id: message.id, ...reply }));
    }
  }

  private answer(id: number, prompt: string): void {
    const current = this.current;
    if (!current?.ask) return this.send({ type: 'ask-reply', id, answer: null });
    current.pause();
    void current.ask(prompt).then((answer) => {
      if (this.current !== current) return;
      current.resume();
      this.send({ type: 'ask-reply', id, answer });
    });
  }

  private end(why: Cutoff): void {
    this.dead = true;
    this.current?.finish(why);
    if (this.ended) return;
    this.ended = true;
    for (const handler of this.exitHandlers) handler();
  }
}
