// Who runs next on the shell workers. Commands take turns by source address, then within an address
// the user that has used the least CPU time lately goes first, so one client's many busy connections
// cannot keep another player's command waiting, even one behind the same address; an address may run
// only so many commands at once and have only so many waiting.
// A child job (the command `timeout` starts) goes first and past the caps: its parent already holds
// a worker and waits on it, so making it queue could only deadlock the two.

/**
 * Where a command comes from: the client's address, its connection, and the user it runs as. CPU time
 * is charged to the address and user, which outlive a connection (a client that reconnects for each
 * busy loop keeps its record).
 */
export type JobSource = { address: string; connection: number; user?: string };

/** Caps per source address. */
export type SchedulerLimits = {
  /** Commands one address may run at once. */
  runningPerAddress: number;
  /** Commands one address may have waiting for a worker. */
  waitingPerAddress: number;
};

/** CPU time a connection used counts half as much after this long. */
const USAGE_HALF_LIFE_MS = 60_000;
/**
 * A user who used less than this lately and runs nothing now is light: their command may start past
 * their address's cap (its workers all held, say, by another user's loops), while a quarter of all
 * workers stays free.
 */
const LIGHT_MS = 1_000;

/** A command waiting for a worker. */
export type WaitingJob<Grant> = {
  source: JobSource;
  /** Started at once, ahead of every turn and past the caps (the process `timeout` starts). */
  child: boolean;
  /** Not held to the waiting cap (cron's own jobs, which a person cannot multiply). */
  trusted: boolean;
  start: (grant: Grant) => void;
};

type AddressLine<Grant> = {
  running: number;
  /** Waiting jobs by connection; a Map keeps insertion order, which is the connections' turn order. */
  waiting: Map<number, WaitingJob<Grant>[]>;
  count: number;
};

export class JobScheduler<Grant> {
  private readonly limits: SchedulerLimits & { total: number };
  /** Jobs running, children included, across all addresses. */
  private running = 0;
  /** Jobs running per address and user. */
  private readonly runningByUser = new Map<string, number>();
  private readonly children: WaitingJob<Grant>[] = [];
  /** Addresses in turn order: the one served longest ago first. */
  private readonly lines = new Map<string, AddressLine<Grant>>();
  /** CPU time each user of each address used lately (ms, halving every USAGE_HALF_LIFE_MS). */
  private readonly usage = new Map<string, { ms: number; at: number }>();

  /** `total`: the workers there are, of which a quarter stays for other addresses when a light user passes a cap. */
  constructor(limits: SchedulerLimits & { total: number }) {
    this.limits = limits;
  }

  /** Puts a job in line; false when its address already has as many waiting as it may. */
  enqueue(job: WaitingJob<Grant>): boolean {
    if (job.child) {
      this.children.push(job);
      return true;
    }
    const line = this.line(job.source.address);
    if (!job.trusted && line.count >= this.limits.waitingPerAddress) return false;
    const queue = line.waiting.get(job.source.connection) ?? [];
    queue.push(job);
    line.waiting.set(job.source.connection, queue);
    line.count++;
    return true;
  }

  /** The job that would start next, or undefined when none may start now. */
  peek(): WaitingJob<Grant> | undefined {
    return this.children[0] ?? this.nextTurn()?.queue[0];
  }

  /** Takes the job that starts next and counts it as running for its address. */
  take(): WaitingJob<Grant> | undefined {
    const child = this.children.shift();
    if (child) {
      this.started(this.line(child.source.address), child.source);
      return child;
    }
    const turn = this.nextTurn();
    if (!turn) return undefined;
    const { address, line, connection, queue } = turn;
    const job = queue.shift() as WaitingJob<Grant>;
    line.count--;
    this.started(line, job.source);
    // Served: this connection goes to the back of its address's turns, the address to the back of all.
    line.waiting.delete(connection);
    if (queue.length > 0) line.waiting.set(connection, queue);
    this.lines.delete(address);
    this.lines.set(address, line);
    return job;
  }

  /** Takes a job out of line before it started (its command was given up); false when not waiting. */
  cancel(job: WaitingJob<Grant>): boolean {
    const child = this.children.indexOf(job);
    if (child >= 0) {
      this.children.splice(child, 1);
      return true;
    }
    const line = this.lines.get(job.source.address);
    const queue = line?.waiting.get(job.source.connection);
    const at = queue?.indexOf(job) ?? -1;
    if (!line || !queue || at < 0) return false;
    queue.splice(at, 1);
    line.count--;
    if (queue.length === 0) line.waiting.delete(job.source.connection);
    if (line.running === 0 && line.count === 0) this.lines.delete(job.source.address);
    return true;
  }

  /** Counts `cpuMs` of CPU time against `source`'s address and user, who then wait behind lighter ones. */
  charge(source: JobSource, cpuMs: number, now = Date.now()): void {
    const key = usageKey(source);
    this.usage.set(key, { ms: this.usageOf(key, now) + cpuMs, at: now });
    // Forget those whose usage has decayed to nothing, so the map stays the size of the busy ones.
    if (this.usage.size > 4096)
      for (const other of [...this.usage.keys()]) if (this.usageOf(other, now) < 1) this.usage.delete(other);
  }

  /** A job of `source` ended (however it ended). */
  finished(source: JobSource): void {
    const line = this.lines.get(source.address);
    if (!line) return;
    line.running = Math.max(0, line.running - 1);
    this.running = Math.max(0, this.running - 1);
    const key = usageKey(source);
    const left = (this.runningByUser.get(key) ?? 1) - 1;
    if (left > 0) this.runningByUser.set(key, left);
    else this.runningByUser.delete(key);
    if (line.running === 0 && line.count === 0) this.lines.delete(source.address);
  }

  /** Jobs waiting, children included. */
  get waiting(): number {
    let n = this.children.length;
    for (const line of this.lines.values()) n += line.count;
    return n;
  }

  /** Commands running and waiting per address (benchmarks and tests read it). */
  byAddress(): Record<string, { running: number; waiting: number }> {
    const out: Record<string, { running: number; waiting: number }> = {};
    for (const [address, line] of this.lines) out[address] = { running: line.running, waiting: line.count };
    return out;
  }

  private nextTurn() {
    const now = Date.now();
    const spare = this.limits.total - Math.ceil(this.limits.total / 4) - this.running;
    for (const [address, line] of this.lines) {
      if (line.count === 0) continue;
      const atCap = line.running >= this.limits.runningPerAddress;
      if (atCap && spare <= 0) continue;
      // The connection of the lightest user lately; among equals the one that has waited longest (the Map's order).
      let best: { connection: number; queue: WaitingJob<Grant>[]; used: number } | undefined;
      for (const [connection, queue] of line.waiting) {
        const first = queue[0];
        const key = first ? usageKey(first.source) : '';
        const used = this.usageOf(key, now);
        if (atCap && (used >= LIGHT_MS || this.runningByUser.has(key))) continue;
        if (!best || used < best.used) best = { connection, queue, used };
      }
      if (best) return { address, line, connection: best.connection, queue: best.queue };
    }
    return undefined;
  }

  private started(line: AddressLine<Grant>, source: JobSource): void {
    line.running++;
    this.running++;
    const key = usageKey(source);
    this.runningByUser.set(key, (this.runningByUser.get(key) ?? 0) + 1);
  }

  private usageOf(key: string, now: number): number {
    const entry = this.usage.get(key);
    return entry ? entry.ms * 0.5 ** ((now - entry.at) / USAGE_HALF_LIFE_MS) : 0;
  }

  private line(address: string): AddressLine<Grant> {
    let line = this.lines.get(address);
    if (!line) {
      line = { running: 0, waiting: new Map(), count: 0 };
      this.lines.set(address, line);
    }
    return line;
  }
}

const usageKey = (source: JobSource) => `${source.address} ${source.user ?? `#${source.connection}`}`;
