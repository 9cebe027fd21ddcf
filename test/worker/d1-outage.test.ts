// D1 failing for a while, then recovering: every action that was applied is answered, the run goes
// on, no row is lost or doubled, and the runs row converges to the Durable Object's truth.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { findRun } from '../../worker/db.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';

/** Drops every table the migrations made (read from the database, so a new migration's table is dropped too), runs last. */
const breakD1 = async () => {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  const tables = results.map((r) => r.name).sort((a, b) => Number(a === 'runs') - Number(b === 'runs'));
  await env.DB.exec(tables.map((t) => `DROP TABLE IF EXISTS ${t};`).join(' '));
};
const repairD1 = () => applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
const count = async (table: string, runId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n, count(DISTINCT seq) AS seqs FROM ${table} WHERE run_id = ?`)
    .bind(runId)
    .first<{ n: number; seqs: number }>())!;
const eventsOf = async (id: string) =>
  ((await (await call(`/api/runs/${id}/events?limit=1000`)).json()) as { events: RunEvent[] }).events;

describe('D1 outage', () => {
  it('answers every applied action, keeps the run going, and loses no row once D1 is back', async () => {
    await breakD1();
    // Created and played while D1 is gone: the answers are the Durable Object's, unharmed.
    const run = await createRun({ model: 'script-pause' });
    const paused = await waitForStatus(run.id, 'paused_for_user_action');
    expect(paused.levelsSolved).toBe(0);
    const listed = await call('/api/runs');
    expect(listed.status).toBe(503);
    expect(await listed.json()).toMatchObject({ error: { code: 'd1_unavailable' } });
    const answer = await postJson(`/api/runs/${run.id}/actions`, { action: 'continue', hint: 'try harder' });
    expect(answer.status).toBe(200);
    const done = await waitForStatus(run.id, 'completed');

    await repairD1();
    // The outbox drains on its own retry; the run row converges to the object's truth.
    await vi.waitFor(async () => expect((await findRun(env, run.id))?.status).toBe('completed'), {
      timeout: 10_000,
      interval: 50,
    });
    const row = (await findRun(env, run.id))!;
    expect(row).toMatchObject({
      status: 'completed',
      levelsSolved: done.levelsSolved,
      currentLevel: done.currentLevel,
      promptTokens: 100,
      completionTokens: 20,
    });

    const events = await eventsOf(run.id);
    const expected = { llm_calls: 'llm_call', executions: 'node', commands: 'output' } as const;
    for (const [table, type] of Object.entries(expected)) {
      const want = events.filter((e) => e.type === type).length;
      expect(want, table).toBeGreaterThan(0);
      expect(await count(table, run.id), table).toEqual({ n: want, seqs: want });
    }
  });
});
