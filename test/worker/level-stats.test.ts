// The per-level figures a run's Durable Object keeps: an object whose table predates pauses by
// reason gets the column from its first migration (worker/object-sql/) and counts pauses by reason from then on.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { LevelStats } from '../../worker/level-stats.ts';
import { migrate } from '../../worker/object-sql/migrate.ts';
import { runSessionMigrations } from '../../worker/object-sql/run-session-migrations.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';

const pause = (reason: 'max_retries' | 'loop_detected', seq: number) =>
  ({
    type: 'user_action_required',
    seq,
    ts: '2026-01-01T00:00:00.000Z',
    runId: 'run_levelstats00000000000001',
    reason,
    level: 3,
    retryCount: 1,
    maxRetries: 1,
    lastError: null,
    lessons: [],
  }) as RunEvent;

describe('LevelStats', () => {
  it('adds pause_reasons to a table made without it, and counts pauses by reason', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('level-stats-upgrade'));
    await runInDurableObject(stub, (_instance: RunSession, state) => {
      const sql = state.storage.sql;
      sql.exec('DROP TABLE IF EXISTS level_stats');
      // The table as objects made before this column have it.
      sql.exec(`CREATE TABLE level_stats (
        level INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, ended_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0,
        retries INTEGER NOT NULL DEFAULT 0, pauses INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0,
        helped INTEGER NOT NULL DEFAULT 0, commands INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0, sent INTEGER NOT NULL DEFAULT 0)`);
      sql.exec('INSERT INTO level_stats (level, started_at, pauses) VALUES (3, 0, 2)');
      migrate(state.storage, runSessionMigrations, 0);
      const stats = new LevelStats(sql);
      stats.apply(pause('max_retries', 1), null);
      stats.apply(pause('max_retries', 2), null);
      stats.apply(pause('loop_detected', 3), null);
      const [row] = stats.unsent();
      expect(row!.row).toMatchObject({ level: 3, pauses: 5, pauseReasons: { max_retries: 2, loop_detected: 1 } });
      // A second start applies nothing and leaves the column be.
      expect(migrate(state.storage, runSessionMigrations, 1)).toEqual([]);
      expect(new LevelStats(sql).unsent()[0]!.row.pauseReasons).toEqual({ max_retries: 2, loop_detected: 1 });
    });
  });
});
