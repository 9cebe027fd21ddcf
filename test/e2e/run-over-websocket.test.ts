// One run on the real stack (wrangler dev + real proxy + range, baseline model, maxRetries 1),
// driven through a WebSocket client: created over REST, paused at max retries, continued with a
// hint, paused again, stopped. Then a reconnect with `since` gets exactly the missed events.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { runSummarySchema } from '../../schema/run.ts';
import { watchEvents } from '../support/run-socket.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-ws-'));
let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess(stateDir);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';

describe('a run watched and steered over a WebSocket', () => {
  it('pauses at max retries, continues on a hint, pauses again, stops, and replays exactly', async () => {
    const created = await fetch(`${stack.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ maxRetries: 1 }),
    });
    expect(created.status).toBe(201);
    const run = runSummarySchema.parse(await created.json());
    const socketUrl = `${stack.url.replace('http', 'ws')}/api/runs/${run.id}/ws`;

    let pauses = 0;
    const { messages, events } = await watchEvents(
      `${socketUrl}?since=0`,
      (event) => event.type === 'run_complete',
      (event, ws) => {
        if (event.type !== 'user_action_required') return;
        pauses += 1;
        ws.send(
          JSON.stringify(pauses === 1 ? { type: 'user_action', action: 'continue', hint: HINT } : { type: 'stop' }),
        );
      },
    );
    expect(messages.slice(0, 2).map((m) => m.type)).toEqual(['welcome', 'snapshot']);
    // Every event once, in order, no gaps.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

    const required = events.filter((e) => e.type === 'user_action_required');
    expect(required).toHaveLength(2);
    const first = required[0]!;
    expect(first).toMatchObject({ reason: 'max_retries', maxRetries: 1 });
    const firstLevel = (first as { level: number }).level;
    expect(firstLevel).toBeGreaterThanOrEqual(10);
    // Nothing completes before the first answer.
    expect(events.slice(0, events.indexOf(first)).some((e) => e.type === 'run_complete')).toBe(false);

    expect(events.filter((e) => e.type === 'user_action_resolved')).toEqual([
      expect.objectContaining({ action: 'continue', hint: HINT, by: 'an API client' }),
      expect.objectContaining({ action: 'stop', by: 'an API client' }),
    ]);
    const solved = events.filter((e) => e.type === 'level_complete').map((e) => (e as { level: number }).level);
    expect(solved).toContain(firstLevel);
    expect(events.filter((e) => e.type === 'run_complete')).toEqual([expect.objectContaining({ status: 'stopped' })]);

    // The REST history is the same log.
    const history = (await (await fetch(`${stack.url}/api/runs/${run.id}/events?limit=1000`)).json()) as {
      events: RunEvent[];
    };
    expect(history.events).toEqual(events);

    // A client that saw half reconnects with since and gets exactly the rest.
    const half = Math.floor(events.length / 2);
    const last = events.at(-1)!.seq;
    const replay = await watchEvents(`${socketUrl}?since=${half}`, (event) => event.seq === last);
    expect(replay.events.map((e) => e.seq)).toEqual(events.slice(half).map((e) => e.seq));
  });
});
