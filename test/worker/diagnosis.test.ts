// GET /api/runs/:id/diagnosis (the troubleshooting card for a pause or bad end) and
// GET /api/runs/:id/timeline (the run's spans), both read from its log.
import { describe, expect, it } from 'vitest';
import { troubleCardSchema } from '../../schema/failures.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { timelineSchema } from '../../schema/timeline.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';

const diagnosis = async (id: string) => (await (await call(`/api/runs/${id}/diagnosis`)).json()) as { card: unknown };

describe('GET /api/runs/:id/diagnosis', () => {
  it('explains a pause with evidence from the log, and a stop; no card while the answer is being played', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const card = troubleCardSchema.parse((await diagnosis(run.id)).card);
    expect(card).toMatchObject({
      failure: 'max_retries',
      category: 'agent',
      level: 0,
      what: 'no password after 3 attempts',
    });
    expect(card.evidence).toContainEqual(expect.objectContaining({ label: 'last command', text: '$ ls → exit 0' }));
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    expect(troubleCardSchema.parse((await diagnosis(run.id)).card)).toMatchObject({
      failure: 'stopped',
      what: 'stopped by an API client',
    });
  });

  it('has no card for a completed run, and 404 for an unknown one', async () => {
    const run = await createRun({ model: 'script-yield' });
    await waitForStatus(run.id, 'completed');
    expect(await diagnosis(run.id)).toEqual({ card: null });
    expect((await call('/api/runs/run_0000000000000000000000000/diagnosis')).status).toBe(404);
  });
});

describe('GET /api/runs/:id/timeline', () => {
  it("nests the real run's levels, attempts, nodes and commands, and sums its model calls", async () => {
    const run = await createRun({ model: 'fake-model', budget: 3, maxRetries: 1, endLevel: 0, finalAttempt: false });
    await waitForStatus(run.id, 'paused_for_user_action', 30_000);
    const { spans } = timelineSchema.parse(await (await call(`/api/runs/${run.id}/timeline`)).json());
    const events = ((await (await call(`/api/runs/${run.id}/events?limit=1000`)).json()) as { events: RunEvent[] })
      .events;
    const calls = events.filter((e) => e.type === 'llm_call');
    expect(spans.map((s) => [s.kind, s.level])).toEqual([['level', 0]]);
    const level = spans[0]!;
    expect(level.promptTokens).toBe(calls.reduce((n, c) => n + c.promptTokens, 0));
    const attempts = level.children.filter((s) => s.kind === 'attempt');
    expect(attempts.map((a) => a.status)).toEqual(['error']);
    const nodes = level.children.flatMap((s) => (s.kind === 'node' ? [s] : s.children));
    expect(nodes.filter((n) => n.name === 'execute')).toHaveLength(3);
    const leaves = nodes.flatMap((n) => n.children);
    expect(leaves.filter((l) => l.kind === 'command')).toHaveLength(3);
    expect(leaves.filter((l) => l.kind === 'model_call').map((l) => l.callId)).toEqual(calls.map((c) => c.callId));
    for (const leaf of leaves) expect(Date.parse(leaf.start)).toBeGreaterThanOrEqual(Date.parse(level.start));
  });
});
