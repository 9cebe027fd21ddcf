// An id that names no run makes nothing: every route answers 404 without reaching a Durable Object
// (reaching one creates it, with storage that stays), and an object reached anyway writes no table;
// when the queue's registry fails or hangs, D1 answers instead.
import { env, listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../../worker/app.ts';
import { runExists } from '../../worker/run-lookup.ts';
import { queueFor } from '../../worker/run-queue.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { call, createRun, postJson } from './http.ts';

const unknownId = (i: number) => `run_unknown${String(i).padStart(4, '0')}abcdefghijklmn`;
/** The object's own tables (SQLite's and the runtime's are left out). */
const tablesOf = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .toArray()
    .map((r) => r.name);

describe('unknown run ids', () => {
  it('answer 404 on every route, the socket before its upgrade, and create no object', async () => {
    const before = (await listDurableObjectIds(env.RUN_SESSION)).length;
    for (let i = 0; i < 20; i++) {
      const id = unknownId(i);
      const answers = await Promise.all([
        call(`/api/runs/${id}`),
        call(`/api/runs/${id}/events?since=0`),
        call(`/api/runs/${id}/diagnosis`),
        call(`/api/runs/${id}/timeline`),
        call(`/api/runs/${id}/llm-calls/call_1`),
        call(`/api/runs/${id}/artifacts`),
        call(`/api/runs/${id}/terminal.cast`),
        call(`/api/runs/${id}/verification`),
        postJson(`/api/runs/${id}/verify`, {}),
        postJson(`/api/runs/${id}/actions`, { action: 'stop' }),
        call(`/api/runs/${id}/ws`, { headers: { upgrade: 'websocket' } }),
        call(`/api/runs/${id}/report.html`),
      ]);
      expect(
        answers.map((r) => r.status),
        id,
      ).toEqual(Array(12).fill(404));
      expect(answers[10]!.webSocket).toBeNull();
      expect(await answers[0]!.json()).toMatchObject({
        error: { code: 'run_not_found', message: expect.stringMatching(/GET \/api\/runs/) },
      });
    }
    expect((await listDurableObjectIds(env.RUN_SESSION)).length).toBe(before);
    // A real run is still found, through the registry, and its object answers.
    const run = await createRun({ model: 'script-pause' });
    expect((await call(`/api/runs/${run.id}`)).status).toBe(200);
    expect((await listDurableObjectIds(env.RUN_SESSION)).length).toBe(before + 1);
  });

  it('still finds a run made before the registry (its object made directly), through D1', async () => {
    const id = unknownId(50);
    const config = (await createRun({ model: 'script-pause' })).config;
    expect(await env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id)).create(id, config)).not.toBeNull();
    const answer = await call(`/api/runs/${id}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id });
    expect((await call(`/api/runs/${id}/ws`, { headers: { upgrade: 'websocket' } })).status).toBe(101);
  });

  it('an object reached for an id that names no run writes no table; create() makes them', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName(unknownId(99)));
    expect(await stub.summary()).toBeNull();
    expect(await stub.eventPage(0, 10)).toBeNull();
    expect(await stub.act({ action: 'stop' }, 'test')).toMatchObject({ ok: false, code: 'not_found' });
    expect((await stub.fetch(new Request('http://run/ws', { headers: { upgrade: 'websocket' } }))).status).toBe(404);
    const empty = await runInDurableObject(stub, (_instance: RunSession, state) => ({
      tables: tablesOf(state.storage.sql),
      size: state.storage.sql.databaseSize,
    }));
    expect(empty.tables).toEqual([]);

    expect(await stub.create(unknownId(99), (await createRun({ model: 'script-pause' })).config)).not.toBeNull();
    const made = await runInDurableObject(stub, (_instance: RunSession, state) => ({
      tables: tablesOf(state.storage.sql),
      size: state.storage.sql.databaseSize,
    }));
    expect(made.tables).toEqual(
      expect.arrayContaining([
        'run',
        'events',
        'loop',
        'outbox',
        'level_figures',
        'record_place',
        'checkpoint_items',
        'schedule',
      ]),
    );
    expect(made.size).toBeGreaterThan(empty.size);
    console.log(
      `an object reached for an unknown id: ${empty.size} bytes of SQLite, no tables; with a run: ${made.size} bytes`,
    );
  });
});

describe('run lookup when the queue fails', () => {
  /** A queue namespace whose object fails every call (or never answers), standing in for a queue that is down. */
  const brokenQueue = (fail: () => Promise<never>) =>
    ({
      idFromName: () => env.RUN_QUEUE.idFromName('queue'),
      get: () => ({ knows: fail, register: fail }),
    }) as unknown as Env['RUN_QUEUE'];
  const down = () => Promise.reject(new Error('queue down'));
  const hangs = () => new Promise<never>(() => undefined);
  const brokenDb = {
    prepare: () => {
      throw new Error('d1 down');
    },
  } as unknown as Env['DB'];
  const get = (id: string, bindings: object) => app.request(`http://127.0.0.1:8787/api/runs/${id}`, {}, bindings);

  /** A run made as before the registry: its object and D1 row exist, the queue never heard of it. */
  async function runInD1Only(id: string): Promise<void> {
    const config = (await createRun({ model: 'script-pause' })).config;
    expect(await env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id)).create(id, config)).not.toBeNull();
    expect(await queueFor(env).knows(id)).toBe(false);
  }

  it('asks D1 when the queue fails or hangs: a run in D1 is served, an unknown id is still 404 and makes nothing', async () => {
    for (const [i, fail] of [down, hangs].entries()) {
      const id = unknownId(200 + i);
      await runInD1Only(id);
      const bindings = { ...env, RUN_QUEUE: brokenQueue(fail) };
      const started = Date.now();
      const served = await get(id, bindings);
      expect(served.status, fail.name).toBe(200);
      expect(await served.json()).toMatchObject({ id });
      const before = (await listDurableObjectIds(env.RUN_SESSION)).length;
      const unknown = await get(unknownId(210 + i), bindings);
      expect(unknown.status, fail.name).toBe(404);
      expect((await listDurableObjectIds(env.RUN_SESSION)).length).toBe(before);
      console.log(
        `queue ${fail === down ? 'failing' : 'hanging'}: two lookups answered through D1 in ${Date.now() - started} ms`,
      );
    }
  });

  it('lets a lookup through to the object only when both fail, and does not keep that guess', async () => {
    const id = unknownId(220);
    expect(await runExists({ ...env, RUN_QUEUE: brokenQueue(down), DB: brokenDb }, id)).toBe(true);
    expect(await runExists({ ...env, RUN_QUEUE: brokenQueue(down) }, id)).toBe(false);
    expect(await runExists(env, id)).toBe(false);
  });

  it('registers a run found only in D1, so the queue knows it next time', async () => {
    const id = unknownId(230);
    await runInD1Only(id);
    expect((await call(`/api/runs/${id}`)).status).toBe(200);
    expect(await queueFor(env).knows(id)).toBe(true);
  });
});
