// A run stored before the one outcome taxonomy reads the way a new one does: its object (old tables,
// old level_stats counting a bare continue as not help) and its D1 rows (no outcome) are folded again
// from its own log when the board is asked, and the board then shows the taxonomy's outcome.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { analyticsLevelsSchema, analyticsModelsSchema, analyticsSummarySchema } from '../../schema/analytics.ts';
import { boardSchema } from '../../schema/board.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { LAST_LEVEL_STATS, OLD_RUN_SESSION } from '../support/old-run-object.ts';
import { call } from './http.ts';

const RUN_ID = 'run_refold000000000000000001';
const MODEL = 'refold-model';
const config = runConfigSchema.parse({ model: MODEL, startLevel: 2, endLevel: 2, maxRetries: 1 });

let seq = 0;
const event = (body: Record<string, unknown>): RunEvent =>
  ({ seq: ++seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), runId: RUN_ID, ...body }) as RunEvent;
/** Level 2: paused at max retries, a bare continue, then the agent proved it. */
const LOG = [
  event({ type: 'run_created', config }),
  event({ type: 'status_changed', from: 'queued', to: 'running' }),
  event({ type: 'level_started', level: 2, attempt: 1, retryCount: 0 }),
  event({
    type: 'user_action_required',
    reason: 'max_retries',
    level: 2,
    retryCount: 1,
    maxRetries: 1,
    lastError: null,
    lessons: [],
  }),
  event({ type: 'user_action_resolved', action: 'continue', by: 'person' }),
  event({ type: 'level_started', level: 2, attempt: 2, retryCount: 0 }),
  event({ type: 'level_complete', level: 2, nextLevel: 3, commands: 1, durationMs: 500, solvedBy: 'agent' }),
  event({ type: 'run_complete', status: 'completed', levelsSolved: 1 }),
];

describe('runs stored before outcomes', () => {
  it('are folded again from their own log when the board is read', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName(RUN_ID));
    await runInDurableObject(stub, (_instance: RunSession, state) => {
      const sql = state.storage.sql;
      for (const statement of [...OLD_RUN_SESSION, LAST_LEVEL_STATS]) sql.exec(statement);
      sql.exec(
        `INSERT INTO run (singleton, run_id, config, status, current_level, levels_solved, created_at, updated_at, started_at, ended_at)
         VALUES (1, ?, ?, 'completed', 3, 1, 1000, 9000, 1000, 9000)`,
        RUN_ID,
        JSON.stringify(config),
      );
      for (const e of LOG)
        sql.exec(
          'INSERT INTO events (seq, ts, type, level, json) VALUES (?, ?, ?, ?, ?)',
          e.seq,
          Date.parse(e.ts),
          e.type,
          'level' in e ? e.level : null,
          JSON.stringify(e),
        );
      // The old counters, all sent to D1: a bare continue was not help, so "alone".
      sql.exec(
        'INSERT INTO level_stats (level, started_at, attempts, pauses, solved, version, sent) VALUES (2, 1000, 2, 1, 1, 5, 5)',
      );
    });
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, created_at, updated_at)
         VALUES (?, 'completed', 'practice', ?, 2, 2, 1, 15, 3, 1, 1000, 9000)`,
      ).bind(RUN_ID, MODEL),
      env.DB.prepare(
        `INSERT INTO run_levels (run_id, level, model, target, started_at, ended_at, attempts, retries, pauses, solved, helped, pause_reasons, commands, prompt_tokens, completion_tokens, cost_usd)
         VALUES (?, 2, ?, 'practice', 1000, 7000, 2, 0, 1, 1, 0, '{"max_retries":1}', 0, 0, 0, 0)`,
      ).bind(RUN_ID, MODEL),
    ]);

    const response = await call('/api/board');
    expect(response.status).toBe(200);
    const cell = boardSchema.parse(await response.json()).cells.find((c) => c.model === MODEL);
    expect(cell).toMatchObject({ level: 2, runs: 1, alone: 0, helped: 0 });
    expect(cell!.outcomes.solved_after_more_attempts).toBe(1);
    const row = await env.DB.prepare('SELECT outcome, attempts, pauses FROM run_levels WHERE run_id = ?')
      .bind(RUN_ID)
      .first();
    expect(row).toEqual({ outcome: 'solved_after_more_attempts', attempts: 2, pauses: 1 });
    // Nothing is left to fold: the next read wakes no run.
    const left = await env.DB.prepare('SELECT count(*) AS n FROM run_levels WHERE outcome IS NULL').first<{
      n: number;
    }>();
    expect(left!.n).toBe(0);
  });

  it('answers for a row whose run has no object to fold it, and leaves that row as it is', async () => {
    const orphan = 'run_refoldorphan0000000000001';
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, created_at, updated_at)
         VALUES (?, 'completed', 'practice', 'orphan-model', 0, 0, 1, 15, 0, 0, 1000, 9000)`,
      ).bind(orphan),
      env.DB.prepare(
        `INSERT INTO run_levels (run_id, level, model, target, started_at, attempts, retries, pauses, solved, helped, pause_reasons, commands, prompt_tokens, completion_tokens, cost_usd)
         VALUES (?, 0, 'orphan-model', 'practice', 1000, 1, 0, 0, 0, 0, '{}', 0, 0, 0, 0)`,
      ).bind(orphan),
    ]);
    for (let i = 0; i < 3; i++) expect((await call('/api/board')).status).toBe(200);
    // Its unknown outcome counts as none, never as a null where a count belongs (the page refused that).
    const summary = await call('/api/analytics/summary');
    expect(summary.status).toBe(200);
    analyticsSummarySchema.parse(await summary.json());
    analyticsLevelsSchema.parse(await (await call('/api/analytics/levels')).json());
    analyticsModelsSchema.parse(await (await call('/api/analytics/models')).json());
    const row = await env.DB.prepare('SELECT outcome FROM run_levels WHERE run_id = ?').bind(orphan).first();
    expect(row).toEqual({ outcome: null });
  });
});
