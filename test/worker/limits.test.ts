// Bounds a client meets with 429 and a sentence: open sockets per run (MAX_SOCKETS_PER_RUN) and run
// creations per client (RUN_CREATE_PER_MINUTE, RUN_CREATE_BURST), across runs, batches, verifications and
// settings; with API_TOKEN the token's holders are one client, without it each loopback address is one.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { app } from '../../worker/app.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';

const TOKEN = 'a-long-api-token-for-limit-tests';
const post = (
  path: string,
  body: unknown,
  bindings: object,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
) =>
  app.request(
    `http://127.0.0.1:8787${path}`,
    { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) },
    bindings,
  );

/** A 429's Retry-After, checked against its message: at 1 run a minute, one creation refills within 60 s. */
async function retryAfterOf(refused: Response): Promise<number> {
  expect(refused.status).toBe(429);
  const seconds = Number(refused.headers.get('retry-after'));
  const { error } = (await refused.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe('too_many_runs');
  expect(error.message).toContain(`try again in ${seconds} s`);
  // The bucket was emptied a moment ago, so nearly the whole minute remains (not 0, not milliseconds).
  expect(seconds).toBeGreaterThan(30);
  expect(seconds).toBeLessThanOrEqual(60);
  return seconds;
}

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
    expect(await refused.json()).toMatchObject({
      error: {
        code: 'too_many_sockets',
        message: expect.stringMatching(/64 open sockets \(MAX_SOCKETS_PER_RUN\); close one/),
      },
    });
    sockets.pop()!.close(1000, 'done');
    await vi.waitFor(
      async () => {
        const again = await open();
        expect(again.status).toBe(101);
        again.webSocket!.accept();
        sockets.push(again.webSocket!);
      },
      { timeout: 5_000, interval: 50 },
    );
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
    await expect(refused.clone().json()).resolves.toMatchObject({
      error: {
        message: expect.stringMatching(
          /1 runs a minute \(RUN_CREATE_PER_MINUTE\), at most 3 at once \(RUN_CREATE_BURST\); try again in \d+ s/,
        ),
      },
    });
    await retryAfterOf(refused);
    // Every holder of the token is one client: another address does not get a fresh allowance.
    expect(
      (
        await post('/api/runs', { model: 'script-pause' }, bindings, {
          authorization: `Bearer ${TOKEN}`,
          'cf-connecting-ip': '::1',
        })
      ).status,
    ).toBe(429);
    const batch = await post('/api/batches', { models: ['baseline'], repeats: 1, endLevel: 0 }, bindings);
    expect(batch.status).toBe(429);
  });

  it('refuses a batch larger than the burst whole, saying to split it', async () => {
    const response = await post('/api/batches', { models: ['baseline'], repeats: 4, endLevel: 0 }, bindings);
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({
      error: {
        code: 'too_many_runs',
        message: expect.stringMatching(/4 runs at once is more than a client may create.*split the batch/),
      },
    });
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await (
      await app.request(
        'http://127.0.0.1:8787/api/openapi.json',
        { headers: { authorization: `Bearer ${TOKEN}` } },
        bindings,
      )
    ).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const [path, method] of [
      ['/api/runs', 'post'],
      ['/api/batches', 'post'],
      ['/api/runs/{id}/verify', 'post'],
      ['/api/runs/{id}/ws', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.responses, `${method} ${path}`).toHaveProperty('429');
    }
  });

  it('names a wrong limit setting', async () => {
    const response = await post(
      '/api/runs',
      { model: 'script-pause' },
      { ...env, API_TOKEN: TOKEN, RUN_CREATE_BURST: '0' },
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: { code: 'misconfigured', message: expect.stringMatching(/RUN_CREATE_BURST: must be at least 1/) },
    });
  });
});

describe('run creations per client without API_TOKEN (loopback)', () => {
  const bindings = { ...env, API_TOKEN: '', RUN_CREATE_BURST: '2', RUN_CREATE_PER_MINUTE: '1' };
  const from = (ip: string) => ({ 'cf-connecting-ip': ip });

  it('keys each loopback address apart: one client spent is refused with Retry-After, another still creates', async () => {
    const made: number[] = [];
    for (let i = 0; i < 2; i++)
      made.push((await post('/api/runs', { model: 'script-pause' }, bindings, from('127.0.0.1'))).status);
    expect(made).toEqual([201, 201]);
    const seconds = await retryAfterOf(await post('/api/runs', { model: 'script-pause' }, bindings, from('127.0.0.1')));
    console.log(`loopback client refused with Retry-After: ${seconds} s (1 run a minute, burst 2)`);
    expect((await post('/api/runs', { model: 'script-pause' }, bindings, from('::1'))).status).toBe(201);
  });

  it('draws a verification from the same allowance as runs', async () => {
    // A run that solved level 0 by its own command (the script pauses, and any answer completes the level).
    const solved = await createRun({ model: 'script-pause' });
    await waitForStatus(solved.id, 'paused_for_user_action');
    expect((await postJson(`/api/runs/${solved.id}/actions`, { action: 'continue' })).status).toBeLessThan(300);
    await waitForStatus(solved.id, 'completed');
    const client = from('::ffff:127.0.0.1');
    expect((await post(`/api/runs/${solved.id}/verify`, {}, bindings, client)).status).toBe(201);
    expect((await post('/api/runs', { model: 'script-pause' }, bindings, client)).status).toBe(201);
    // Two taken (a verification and a run): both kinds are now refused.
    await retryAfterOf(await post('/api/runs', { model: 'script-pause' }, bindings, client));
    await retryAfterOf(await post(`/api/runs/${solved.id}/verify`, {}, bindings, client));
  });
});
