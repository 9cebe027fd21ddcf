// The per-level figures a run's Durable Object keeps, by the one fold: generated event logs give the
// same outcome and figures on every level in the fold, in D1's run_levels as the mirror writes it, in
// the board, and in the archive's summary.json; an object stored before the fold catches up from its
// own log; a rolled-back transaction leaves no figure ahead of the log.
import { env, runInDurableObject } from 'cloudflare:test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHelped } from '../../schema/level-outcome.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';
import type { RunSummary } from '../../schema/run.ts';
import { levelResults, recordOf, runTotals } from '../../schema/run-record.ts';
import { board } from '../../worker/analytics/board.ts';
import { runSummaryFile } from '../../worker/artifacts/run-figures.ts';
import { emptyRows, sendToD1 } from '../../worker/d1-mirror.ts';
import { LevelStats } from '../../worker/level-stats.ts';
import { migrate } from '../../worker/object-sql/migrate.ts';
import { runSessionMigrations } from '../../worker/object-sql/run-session-migrations.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { ARBITRARY_RUN_ID, runLogArbitrary } from '../support/run-log-arbitrary.ts';

const summaryOf = (id: string, events: readonly RunEvent[]): RunSummary => ({
  id,
  config: { ...runConfigSchema.parse({}), model: `model-${id.slice(-4)}` },
  status: 'completed',
  currentLevel: 0,
  levelsSolved: runTotals(recordOf(events)).levelsSolved,
  createdAt: events[0]!.ts,
  updatedAt: events.at(-1)!.ts,
  startedAt: events[0]!.ts,
  endedAt: events.at(-1)!.ts,
  lastError: null,
});

/** Makes a fresh figures table set in an object's storage. */
const freshStats = (storage: DurableObjectStorage) => {
  const sql = storage.sql;
  migrate(storage, runSessionMigrations, Date.now());
  sql.exec('DELETE FROM level_figures');
  sql.exec('DELETE FROM record_place');
  return new LevelStats(sql);
};

describe('one fold, every reader', () => {
  it('gives the same figures and outcome per level in the fold, D1, the board and summary.json', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('level-stats-property'));
    let n = 0;
    await runInDurableObject(stub, async (_instance: RunSession, state) => {
      await fc.assert(
        fc.asyncProperty(runLogArbitrary, async (log) => {
          n += 1;
          // Each case is its own run in D1, so the board's cells for its model are this log's levels.
          const runId = `${ARBITRARY_RUN_ID.slice(0, -4)}${String(n).padStart(4, '0')}`;
          const events = log.map((e) => ({ ...e, runId }));
          const expected = levelResults(recordOf(events));

          const stats = freshStats(state.storage);
          for (const event of events) stats.apply(event);
          const unsent = stats.unsent();
          expect(unsent.map((u) => u.row)).toEqual(expected);
          const run = summaryOf(runId, events);
          await sendToD1(
            env,
            run,
            { promptTokens: 0, completionTokens: 0, costUsd: 0, limit: null },
            emptyRows(),
            unsent.map((u) => u.row),
          );
          const rows = (
            await env.DB.prepare(
              'SELECT level, outcome, solved, helped, attempts, retries, pauses, commands, prompt_tokens, completion_tokens, limit_reason FROM run_levels WHERE run_id = ? ORDER BY level',
            )
              .bind(runId)
              .all()
          ).results;
          expect(rows).toEqual(
            expected.map((l) => ({
              level: l.level,
              outcome: l.outcome,
              solved: l.solved ? 1 : 0,
              helped: isHelped(l.outcome) ? 1 : 0,
              attempts: l.attempts,
              retries: l.retries,
              pauses: l.pauses,
              commands: l.commands,
              prompt_tokens: l.promptTokens,
              completion_tokens: l.completionTokens,
              limit_reason: l.limit,
            })),
          );

          const cells = (await board(env.DB, {}, Date.now())).cells.filter((c) => c.model === run.config.model);
          expect(cells.map((c) => [c.level, Object.entries(c.outcomes).find(([, count]) => count === 1)?.[0]])).toEqual(
            expected.map((l) => [l.level, l.outcome]),
          );

          const file = runSummaryFile(run, events);
          expect(file.perLevel.map((l) => [l.level, l.outcome, l.attempts, l.commands, l.limitReason])).toEqual(
            expected.map((l) => [l.level, l.outcome, l.attempts, l.commands, l.limit]),
          );
          expect(file.limitReason).toBe(runTotals(recordOf(events)).limit);
          expect(file.levels.outcomes).toEqual(runTotals(recordOf(events)).outcomes);
        }),
        { numRuns: 60 },
      );
    });
    expect(n).toBe(60);
  });

  it('catches an object stored before the fold up from its own event log', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('level-stats-upgrade'));
    await runInDurableObject(stub, (_instance: RunSession, state) => {
      const sql = state.storage.sql;
      const log = fc.sample(runLogArbitrary, { numRuns: 1, seed: 28 })[0]!;
      // The old object: its log in the events table, no figures in the new tables.
      migrate(state.storage, runSessionMigrations, Date.now());
      sql.exec('DELETE FROM level_figures');
      sql.exec('DELETE FROM record_place');
      sql.exec('DELETE FROM events');
      for (const e of log)
        sql.exec(
          'INSERT INTO events (seq, ts, type, level, json) VALUES (?, ?, ?, ?, ?)',
          e.seq,
          Date.parse(e.ts),
          e.type,
          'level' in e ? e.level : null,
          JSON.stringify(e),
        );
      const stats = new LevelStats(sql);
      expect(stats.unsent().map((u) => u.row)).toEqual(levelResults(recordOf(log)));
      // Caught up once: a second start folds nothing again.
      const versions = sql.exec<{ v: number }>('SELECT sum(version) AS v FROM level_figures').one().v;
      new LevelStats(sql);
      expect(sql.exec<{ v: number }>('SELECT sum(version) AS v FROM level_figures').one().v).toBe(versions);
      sql.exec('DELETE FROM events');
    });
  });

  it('reads storage again after a transaction that applied events rolled back', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('level-stats-rollback'));
    await runInDurableObject(stub, (_instance: RunSession, state) => {
      const log = fc.sample(runLogArbitrary, { numRuns: 1, seed: 7 })[0]!;
      const stats = freshStats(state.storage);
      const half = Math.floor(log.length / 2);
      for (const event of log.slice(0, half)) stats.apply(event);
      expect(() =>
        state.storage.transactionSync(() => {
          for (const event of log.slice(half)) stats.apply(event);
          throw new Error('the step did not fit');
        }),
      ).toThrow('the step did not fit');
      // The second half again, as the retried step would store it: counted once, not twice.
      for (const event of log.slice(half)) stats.apply(event);
      expect(stats.unsent().map((u) => u.row)).toEqual(levelResults(recordOf(log)));
    });
  });
});
