// GET /api/runs (filter, newest first, cursor pages) and GET /api/models.
import { describe, expect, it } from 'vitest';
import { modelListSchema } from '../../schema/protocol.ts';
import { runListSchema } from '../../schema/run.ts';
import { call, createRun } from './http.ts';

const list = async (query: string) => {
  const response = await call(`/api/runs${query}`);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('GET /api/runs', () => {
  it('pages newest first with a cursor, and filters by status', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createRun({ model: 'script-pause' }));
    const first = runListSchema.parse((await list('?limit=2')).body);
    expect(first.runs).toHaveLength(2);
    expect(first.runs.map((r) => r.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first.nextCursor).not.toBeNull();
    const second = runListSchema.parse((await list(`?limit=2&cursor=${first.nextCursor}`)).body);
    expect(second.runs[0]?.id).toBe(made[0]!.id);

    const stopped = await createRun({ model: 'script-pause' });
    await call(`/api/runs/${stopped.id}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"action":"stop"}',
    });
    const filtered = runListSchema.parse((await list('?status=stopped')).body);
    expect(filtered.runs.map((r) => r.id)).toContain(stopped.id);
    expect(filtered.runs.every((r) => r.status === 'stopped')).toBe(true);
  });

  it('refuses a bad query with the issues', async () => {
    const result = await list('?limit=0&status=sleeping&color=red');
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      error: {
        code: 'invalid_query',
        issues: expect.arrayContaining([
          expect.stringMatching(/^limit: /),
          expect.stringMatching(/^status: /),
          expect.stringMatching(/color/),
        ]),
      },
    });
    expect((await list('?cursor=nonsense')).status).toBe(400);
  });
});

describe('GET /api/models', () => {
  it("lists the proxy's models, baseline first", async () => {
    const response = await call('/api/models');
    expect(response.status).toBe(200);
    expect(modelListSchema.parse(await response.json()).models[0]).toEqual({
      id: 'baseline',
      provider: 'baseline',
      available: true,
      maxConcurrent: null,
      price: { input: 0, output: 0 },
    });
  });
});
