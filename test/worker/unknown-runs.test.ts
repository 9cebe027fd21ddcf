// An id that names no run makes nothing: every route answers 404 without reaching a Durable Object
// (reaching one creates it, with storage that stays), and an object reached anyway writes no table.
import { env, listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { RunSession } from '../../worker/run-session.ts';
import { call, createRun, postJson } from './http.ts';

const unknownId = (i: number) => `run_unknown${String(i).padStart(4, '0')}abcdefghijklmn`;
/** The object's own tables (SQLite's and the runtime's are left out). */
const tablesOf = (sql: SqlStorage) =>
  sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").toArray().map((r) => r.name);

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
      ]);
      expect(answers.map((r) => r.status), id).toEqual(Array(11).fill(404));
      expect(answers[10]!.webSocket).toBeNull();
      expect(await answers[0]!.json()).toMatchObject({ error: { code: 'run_not_found', message: expect.stringMatching(/GET \/api\/runs/) } });
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
    const empty = await runInDurableObject(stub, (_instance: RunSession, state) => ({ tables: tablesOf(state.storage.sql), size: state.storage.sql.databaseSize }));
    expect(empty.tables).toEqual([]);

    expect(await stub.create(unknownId(99), (await createRun({ model: 'script-pause' })).config)).not.toBeNull();
    const made = await runInDurableObject(stub, (_instance: RunSession, state) => ({ tables: tablesOf(state.storage.sql), size: state.storage.sql.databaseSize }));
    expect(made.tables).toEqual(expect.arrayContaining(['run', 'events', 'loop', 'outbox', 'level_stats', 'checkpoint_items', 'schedule']));
    expect(made.size).toBeGreaterThan(empty.size);
    console.log(`an object reached for an unknown id: ${empty.size} bytes of SQLite, no tables; with a run: ${made.size} bytes`);
  });
});
