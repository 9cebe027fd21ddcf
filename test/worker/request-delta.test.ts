// Each model call's request is stored in D1 as a delta against the run's previous one, and the exact
// request the model endpoint received can be rebuilt from the stored rows.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { isDelta, rebuildRequest } from '../../schema/request-delta.ts';
import { WHOLE_EVERY } from '../../worker/request-chain.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';

type Row = { id: string; seq: number; request: string };

describe('model requests in D1', () => {
  it('stores deltas whose bytes stay flat, and rebuilds every request exactly as the endpoint got it', async () => {
    const before = ((await (await fetch(`${env.TEST_OPENAI_URL}/__requests`)).json()) as unknown[]).length;
    // fake-model runs a new command every turn: two attempts of 13 commands, each followed by a
    // reflect: 28 calls, so the chain passes a whole request stored again at call 26.
    const run = await createRun({ model: 'fake-model', budget: 13, maxRetries: 2, endLevel: 0, finalAttempt: false });
    await waitForStatus(run.id, 'paused_for_user_action', 30_000);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    const sent = ((await (await fetch(`${env.TEST_OPENAI_URL}/__requests`)).json()) as unknown[]).slice(before);
    const rows = await vi.waitFor(
      async () => {
        const found = (
          await env.DB.prepare('SELECT id, seq, request FROM llm_calls WHERE run_id = ? ORDER BY seq')
            .bind(run.id)
            .all<Row>()
        ).results;
        expect(found.length).toBe(sent.length);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(rows.length).toBe(28);

    const stored = new Map(rows.map((row) => [row.id, JSON.parse(row.request) as unknown]));
    // Whole at call 1 and every WHOLE_EVERY-th call after, so a rebuild reads a bounded chain.
    expect(rows.flatMap((row, i) => (isDelta(stored.get(row.id)) ? [] : [i + 1]))).toEqual([1, 1 + WHOLE_EVERY]);
    rows.forEach((row, i) =>
      expect(
        rebuildRequest(row.id, (id) => stored.get(id)),
        `call ${i + 1}`,
      ).toEqual(sent[i]),
    );

    // The inspector route gives each call's exact request, its response and its figures.
    const calls = (
      (await (await call(`/api/runs/${run.id}/events?limit=1000`)).json()) as { events: RunEvent[] }
    ).events.filter((e) => e.type === 'llm_call');
    expect(calls).toHaveLength(sent.length);
    for (const [i, event] of calls.entries()) {
      const answer = await call(`/api/runs/${run.id}/llm-calls/${event.callId}`);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as {
        call: { seq: number; stage: string };
        request: unknown;
        response: unknown;
      };
      expect(body.request, `call ${i + 1}`).toEqual(sent[i]);
      expect(body.call).toMatchObject({ seq: event.seq, stage: event.stage });
      expect(body.response).toMatchObject({ object: 'chat.completion' });
    }
    expect((await call(`/api/runs/${run.id}/llm-calls/nope`)).status).toBe(404);

    // Flat: the sixth plan call of an attempt stores about what the second does, while the whole
    // request it stands for has grown by five commands and their output.
    const bytes = rows.map((row) => row.request.length);
    const whole = sent.map((request) => JSON.stringify(request).length);
    expect(whole[5]! - whole[1]!).toBeGreaterThan(1_000);
    expect(Math.abs(bytes[5]! - bytes[1]!)).toBeLessThan(300);
  });
});
