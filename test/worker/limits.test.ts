// Bounds a client meets with 429 and a sentence: open sockets per run (MAX_SOCKETS_PER_RUN) and run
// creations per client (RUN_CREATE_PER_MINUTE, RUN_CREATE_BURST), across runs, batches and settings.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { app } from '../../worker/app.ts';
import { call, createRun } from './http.ts';

const TOKEN = 'a-long-api-token-for-limit-tests';
const post = (path: string, body: unknown, bindings: object) =>
  app.request(`http://127.0.0.1:8787${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }, bindings);

describe('sockets per run', () => {
  it('refuses one socket past MAX_SOCKETS_PER_RUN with 429 before the upgrade, and takes one again when a socket closes', async () => {
    const run = await createRun({ model: 'script-pause' });
    const open = async () => call(`/api/runs/${run.id}/ws`, { headers: { upgrade: 'websocket' } });
    const sockets: WebSocket[] = [];
    for (let i = 0; i < Number(env.MAX_SOCKETS_PER_RUN); i++) {
      const response = await open();
      expect(response.status, `socket ${i + 1}`).toBe(101);
      response.webSocket!.accept();
      sockets.push(response.webSocket!);
    }
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(refused.webSocket).toBeNull();
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ error: { code: 'too_many_sockets', message: expect.stringMatching(/64 open sockets \(MAX_SOCKETS_PER_RUN\); close one/) } });
    sockets.pop()!.close(1000, 'done');
    await vi.waitFor(async () => {
      const again = await open();
      expect(again.status).toBe(101);
      again.webSocket!.accept();
      sockets.push(again.webSocket!);
    }, { timeout: 5_000, interval: 50 });
    for (const ws of sockets) ws.close(1000, 'done');
  });
});

describe('run creations per client', () => {
  const bindings = { ...env, API_TOKEN: TOKEN, RUN_CREATE_BURST: '3', RUN_CREATE_PER_MINUTE: '1' };

  it('takes RUN_CREATE_BURST runs at once, then answers 429 with Retry-After, for runs and batches alike', async () => {
    // The token holder's bucket starts full: three runs, then no more.
    const made: number[] = [];
    for (let i = 0; i < 4; i++) made.push((await post('/api/runs', { model: 'script-pause' }, bindings)).status);
    expect(made).toEqual([201, 201, 201, 429]);
    const refused = await post('/api/runs', { model: 'script-pause' }, bindings);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: 'too_many_runs', message: expect.stringMatching(/1 runs a minute \(RUN_CREATE_PER_MINUTE\), at most 3 at once \(RUN_CREATE_BURST\); try again in \d+ s/) } });
    const batch = await post('/api/batches', { models: ['baseline'], repeats: 1, endLevel: 0 }, bindings);
    expect(batch.status).toBe(429);
  });

  it('refuses a batch larger than the burst whole, saying to split it', async () => {
    const before = (await (await call('/api/queue')).json()) as { waiting: unknown[]; running: unknown[] };
    const response = await post('/api/batches', { models: ['baseline'], repeats: 4, endLevel: 0 }, bindings);
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ error: { code: 'too_many_runs', message: expect.stringMatching(/4 runs at once is more than a client may create.*split the batch/) } });
    const after = (await (await call('/api/queue')).json()) as { waiting: unknown[]; running: unknown[] };
    expect(after.waiting.length + after.running.length).toBeLessThanOrEqual(before.waiting.length + before.running.length);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await (await app.request('http://127.0.0.1:8787/api/openapi.json', { headers: { authorization: `Bearer ${TOKEN}` } }, bindings)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const [path, method] of [['/api/runs', 'post'], ['/api/batches', 'post'], ['/api/runs/{id}/verify', 'post'], ['/api/runs/{id}/ws', 'get']] as const) {
      expect(doc.paths[path]?.[method]?.responses, `${method} ${path}`).toHaveProperty('429');
    }
  });

  it('names a wrong limit setting', async () => {
    const response = await post('/api/runs', { model: 'script-pause' }, { ...env, API_TOKEN: TOKEN, RUN_CREATE_BURST: '0' });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'misconfigured', message: expect.stringMatching(/RUN_CREATE_BURST: must be at least 1/) } });
  });
});
