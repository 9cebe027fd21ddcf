// A shell worker's CPU time, read from outside the thread: a command that keeps the CPU busy never
// answers a message, so the main thread reads the kernel's count for that thread (Linux's
// /proc/self/task/TID/stat) or, elsewhere, the worker's event-loop busy time, which counts the same
// thing less exactly (time the thread was ready but not given a core counts too).
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Worker } from 'node:worker_threads';

/** USER_HZ: /proc counts CPU time in these ticks, 100 a second on every Linux architecture. */
const TICKS_PER_SECOND = 100;

/** The calling thread's id as the kernel knows it (run inside the worker), or undefined off Linux. */
export function ownThreadId(): number | undefined {
  try {
    const link = readFileSync('/proc/thread-self/stat', 'utf8');
    const tid = Number(link.slice(0, link.indexOf(' ')));
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Reads one worker thread's CPU time in milliseconds. */
export class ThreadClock {
  private readonly worker: Worker;
  private readonly tid: number | undefined;

  constructor(worker: Worker, tid: number | undefined) {
    this.worker = worker;
    this.tid = tid;
  }

  /** CPU time the thread has used since it started. */
  cpuMs(): number {
    if (this.tid !== undefined) {
      try {
        const stat = readFileSync(`/proc/self/task/${this.tid}/stat`, 'utf8');
        // Fields after the command name, which is in parentheses and may hold spaces: utime, stime are 14, 15.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
      } catch {
        // The thread has just ended; its loop's figure below is the last word.
      }
    }
    try {
      return this.worker.performance.eventLoopUtilization().active;
    } catch {
      return 0;
    }
  }

  /**
   * Sets the thread's nice value (19 lets it run only when nothing else wants the core); false when the
   * kernel refuses (an unprivileged process cannot lower it again) or the thread is not known.
   */
  nice(value: number): boolean {
    if (this.tid === undefined) return false;
    try {
      setPriority(this.tid, value);
      return true;
    } catch {
      return false;
    }
  }
}
