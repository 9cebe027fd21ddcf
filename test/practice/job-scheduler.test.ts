// The order in which the range's commands get a worker: turns by address, then by connection, the
// caps per address, and `timeout`'s child first.
import { describe, expect, it } from 'vitest';
import { JobScheduler } from '../../practice/exec/job-scheduler.ts';
import type { JobSource } from '../../practice/exec/job-scheduler.ts';

const started: string[] = [];
const job = (address: string, connection: number, name: string, more: { child?: boolean; trusted?: boolean } = {}) => ({
  source: { address, connection } satisfies JobSource,
  child: more.child ?? false,
  trusted: more.trusted ?? false,
  start: () => started.push(name),
});

/** Takes every job that may start now, in order. */
function drain(scheduler: JobScheduler<undefined>): string[] {
  started.length = 0;
  for (let next = scheduler.take(); next; next = scheduler.take()) next.start(undefined);
  return [...started];
}

describe('JobScheduler', () => {
  it('gives each address a turn, then each connection within it, whoever queued first', () => {
    const scheduler = new JobScheduler<undefined>({ runningPerAddress: 100, waitingPerAddress: 100, total: 200 });
    // One address queues six commands on three connections before anyone else.
    for (let i = 0; i < 6; i++) scheduler.enqueue(job('10.0.0.1', i % 3, `busy${i}`));
    scheduler.enqueue(job('10.0.0.2', 7, 'other'));
    // The other address's command comes second, not seventh; the busy address's connections alternate.
    expect(drain(scheduler)).toEqual(['busy0', 'other', 'busy1', 'busy2', 'busy3', 'busy4', 'busy5']);
  });

  it('within an address, serves the connection whose user used the least CPU lately first', () => {
    const scheduler = new JobScheduler<undefined>({ runningPerAddress: 100, waitingPerAddress: 100, total: 200 });
    const now = Date.now();
    // Connections 0–2 have each just run a busy loop; connection 3 has only ever run short commands.
    for (const connection of [0, 1, 2]) scheduler.charge({ address: '10.0.0.1', connection }, 10_000, now);
    scheduler.charge({ address: '10.0.0.1', connection: 3 }, 20, now);
    for (const connection of [0, 1, 2, 3]) scheduler.enqueue(job('10.0.0.1', connection, `c${connection}`));
    expect(drain(scheduler)).toEqual(['c3', 'c0', 'c1', 'c2']);
  });

  it('forgets CPU time as it ages: a minute halves it', () => {
    const scheduler = new JobScheduler<undefined>({ runningPerAddress: 100, waitingPerAddress: 100, total: 200 });
    const now = Date.now();
    // 10 s of CPU five minutes ago weighs about 0.3 s now, less than 1 s a moment ago.
    scheduler.charge({ address: 'a', connection: 0 }, 10_000, now - 5 * 60_000);
    scheduler.charge({ address: 'a', connection: 1 }, 1_000, now);
    scheduler.enqueue(job('a', 1, 'recent'));
    scheduler.enqueue(job('a', 0, 'long ago'));
    expect(drain(scheduler)).toEqual(['long ago', 'recent']);
  });

  it('runs at most runningPerAddress at once for an address, and serves the others meanwhile', () => {
    const scheduler = new JobScheduler<undefined>({ runningPerAddress: 2, waitingPerAddress: 100, total: 4 });
    for (let i = 0; i < 5; i++) scheduler.enqueue(job('10.0.0.1', i, `hog${i}`));
    scheduler.enqueue(job('10.0.0.2', 9, 'player'));
    expect(drain(scheduler)).toEqual(['hog0', 'player', 'hog1']);
    expect(scheduler.byAddress()['10.0.0.1']).toEqual({ running: 2, waiting: 3 });
    // One of its commands ends: the address may start one more.
    scheduler.finished({ address: '10.0.0.1', connection: 0 });
    expect(drain(scheduler)).toEqual(['hog2']);
  });

  it('lets a light user past their address’s cap, keeping a quarter of all workers free', () => {
    const scheduler = new JobScheduler<undefined>({ runningPerAddress: 2, waitingPerAddress: 100, total: 8 });
    const loops = (connection: number, name: string) => ({
      ...job('10.0.0.1', connection, name),
      source: { address: '10.0.0.1', connection, user: 'bandit0' },
    });
    const neighbour = (connection: number, user: string, name: string) => ({
      ...job('10.0.0.1', connection, name),
      source: { address: '10.0.0.1', connection, user },
    });
    for (let i = 0; i < 4; i++) scheduler.enqueue(loops(i, `loop${i}`));
    // bandit0 runs one loop (past the cap it would be light, but it runs something now): two start.
    expect(drain(scheduler)).toEqual(['loop0', 'loop1']);
    scheduler.charge({ address: '10.0.0.1', connection: 0, user: 'bandit0' }, 5_000);
    for (const [i, user] of ['bandit1', 'bandit2', 'bandit3', 'bandit4', 'bandit5'].entries())
      scheduler.enqueue(neighbour(10 + i, user, user));
    // Light users pass the cap until 6 of the 8 workers run (a quarter stays for other addresses).
    expect(drain(scheduler)).toEqual(['bandit1', 'bandit2', 'bandit3', 'bandit4']);
    expect(scheduler.byAddress()['10.0.0.1']).toEqual({ running: 6, waiting: 3 });
  });

  it('refuses a command past the waiting cap, except cron’s', () => {
    const scheduler = new JobScheduler<undefined>({ runningPerAddress: 1, waitingPerAddress: 2, total: 2 });
    expect([0, 1, 2].map((i) => scheduler.enqueue(job('10.0.0.1', i, `c${i}`)))).toEqual([true, true, false]);
    expect(scheduler.enqueue(job('cron', 0, 'a', { trusted: true }))).toBe(true);
    expect(scheduler.enqueue(job('cron', 0, 'b', { trusted: true }))).toBe(true);
    expect(scheduler.enqueue(job('cron', 0, 'c', { trusted: true }))).toBe(true);
    expect(scheduler.waiting).toBe(5);
  });

  it('starts a child first and past its address’s cap', () => {
    const scheduler = new JobScheduler<undefined>({ runningPerAddress: 1, waitingPerAddress: 10, total: 2 });
    scheduler.enqueue(job('10.0.0.1', 0, 'parent'));
    scheduler.enqueue(job('10.0.0.2', 1, 'other'));
    expect(drain(scheduler)).toEqual(['parent', 'other']);
    scheduler.enqueue(job('10.0.0.1', 2, 'queued'));
    scheduler.enqueue(job('10.0.0.1', 0, 'child', { child: true }));
    // The address is at its cap: its queued command waits, the parent's child does not.
    expect(drain(scheduler)).toEqual(['child']);
  });
});
