// A run on the real stack keeps going when the stack is stopped mid-run and started again on the
// same local state: the Durable Object's alarm survives, the step cut short is played again from
// the last checkpoint, and the event log has every event once, in order, with no gaps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { runSummarySchema } from '../../schema/run.ts';
import { watchEvents } from '../support/run-socket.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-restart-'));
let stack: StackProcess | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** Polls the run until it has status `status`, with no client connected. */
async function waitForStatus(url: string, status: RunSummary['status'], timeoutMs: number): Promise<RunSummary> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = runSummarySchema.parse(await (await fetch(url)).json());
    if (run.status === status || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a run across a restart of the stack', () => {
  it('goes on from its last checkpoint with no event lost or repeated', async () => {
    stack = await startStackProcess(stateDir);
    const { ports } = stack;
    const created = await fetch(`${stack.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ maxRetries: 1 }),
    });
    const run = runSummarySchema.parse(await created.json());

    // Cut the stack (worker, proxy and range) as soon as the agent has solved level 1.
    const { events: before } = await watchEvents(
      `${stack.url.replace('http', 'ws')}/api/runs/${run.id}/ws?since=0`,
      (e) => e.type === 'level_complete' && e.level >= 1,
      undefined,
      60_000,
    );
    expect(await stack.stop()).toBe(0);
    expect(before.some((e) => e.type === 'user_action_required' || e.type === 'run_complete')).toBe(false);

    // Same ports and state. Nobody connects: the alarm alone must carry the run to its pause.
    stack = await startStackProcess(stateDir, ports);
    const paused = await waitForStatus(`${stack.url}/api/runs/${run.id}`, 'paused_for_user_action', 90_000);
    expect(paused.status).toBe('paused_for_user_action');

    const { events } = (await (await fetch(`${stack.url}/api/runs/${run.id}/events?limit=1000`)).json()) as {
      events: RunEvent[];
    };
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // What a client saw before the cut is the start of the log, unchanged.
    expect(events.slice(0, before.length)).toEqual(before);
    // Each level is solved once, in order, across the cut.
    const solved = events.filter((e) => e.type === 'level_complete').map((e) => e.level);
    expect(solved).toEqual(solved.map((_, i) => i));
    // On failure, say how the run stopped after the restart: a pause for an SSH fault reads differently from a wrong answer.
    const why = JSON.stringify(
      events
        .slice(before.length)
        .filter((e) => e.type === 'error' || e.type === 'user_action_required' || e.type === 'attempt_failed'),
    );
    expect(solved.length, why).toBeGreaterThan(before.filter((e) => e.type === 'level_complete').length);
    // Every command was answered once: no command id appears twice.
    const commandIds = events.filter((e) => e.type === 'command').map((e) => e.commandId);
    expect(new Set(commandIds).size).toBe(commandIds.length);
    // Depending on which process the cut reached first, the worker saw a broken stream (and said so
    // with a proxy_retry error event) or died mid-alarm; either way the run did not fail.
    expect(
      events
        .filter((e) => e.type === 'error')
        .map((e) => e.code)
        .filter((c) => c !== 'proxy_retry'),
    ).toEqual([]);
    expect(events.filter((e) => e.type === 'user_action_required')).toEqual([
      expect.objectContaining({ reason: 'max_retries' }),
    ]);
    expect(events.some((e) => e.type === 'run_complete')).toBe(false);
  });
});
