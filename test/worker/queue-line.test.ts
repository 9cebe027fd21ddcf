// The queue's line (worker/queue-line.ts): a waiting run's place is the same whether the whole line is read or only
// its own place is counted, runs a person continued first, then by arrival.
import { env, runInDurableObject } from 'cloudflare:test';
import { expect, it } from 'vitest';
import { QueueLine } from '../../worker/queue-line.ts';
import type { RunQueue } from '../../worker/run-queue.ts';

it('gives each waiting run its place in line order, counted for one run as for the whole line', async () => {
  const stub = env.RUN_QUEUE.get(env.RUN_QUEUE.idFromName('queue-line-places'));
  const read = await runInDurableObject(stub, (_q: RunQueue, state) => {
    const line = new QueueLine(state.storage.sql);
    const admit = (id: string, front: boolean) => line.admit(id, { provider: 'p', limit: null, front }, 1);
    for (const id of ['run_a', 'run_b', 'run_c']) admit(id, false);
    admit('run_front', true);
    line.take(1, 2); // run_front starts: it was first in line
    admit('run_d', false);
    admit('run_again', true);
    return {
      waiting: line.waiting().map((m) => [m.runId, m.position]),
      each: ['run_a', 'run_b', 'run_c', 'run_d', 'run_again', 'run_front'].map((id) => [id, line.member(id)?.position]),
    };
  });
  expect(read.waiting).toEqual([
    ['run_again', 1],
    ['run_a', 2],
    ['run_b', 3],
    ['run_c', 4],
    ['run_d', 5],
  ]);
  expect(Object.fromEntries(read.each)).toEqual({
    run_a: 2,
    run_b: 3,
    run_c: 4,
    run_d: 5,
    run_again: 1,
    run_front: null,
  });
});
