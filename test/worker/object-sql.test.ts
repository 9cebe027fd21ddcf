// The Durable Objects' own SQLite has one owner: objects stored by the code from before migrations
// (tables made by constructors, columns added by sniffing) are brought to the schema by migration
// 0001 and read back through their classes, and every path ends in exactly worker/object-sql/schema.ts.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../schema/run.ts';
import { LevelStats } from '../../worker/level-stats.ts';
import { migrate } from '../../worker/object-sql/migrate.ts';
import { runSessionMigrations } from '../../worker/object-sql/run-session-migrations.ts';
import type { ObjectSchema } from '../../worker/object-sql/schema.ts';
import { createTableSql, runQueueSchema, runSessionSchema } from '../../worker/object-sql/schema.ts';
import { RunQueue } from '../../worker/run-queue.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import {
  LAST_LEVEL_STATS,
  OLD_LEVEL_STATS,
  OLD_PAUSE_REASONS_ALTER,
  OLD_RUN_SESSION,
} from '../support/old-run-object.ts';

const RUN_ID = 'run_objectsql0000000000000001';
const config = runConfigSchema.parse({ model: 'script-pause' });

/** The queue's line as made before batches, and the columns the constructor sniffed for. */
const OLD_MEMBERS = [
  `CREATE TABLE IF NOT EXISTS members (
      run_id TEXT PRIMARY KEY, provider TEXT NOT NULL, max_concurrent INTEGER,
      state TEXT NOT NULL, priority INTEGER NOT NULL, seq INTEGER NOT NULL, since INTEGER NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS members_line ON members (state, priority, seq)',
];
const OLD_QUEUE_REST = [
  'CREATE TABLE IF NOT EXISTS known_runs (run_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)',
  'CREATE TABLE IF NOT EXISTS creation_buckets (client TEXT PRIMARY KEY, tokens REAL NOT NULL, updated_at INTEGER NOT NULL)',
];

type Shape = Record<string, unknown[]>;

/** Every table and index of an object with each table's table_info, leaving out SQLite's and workerd's own. */
function shapeOf(sql: SqlStorage): Shape {
  const shape: Shape = {};
  const names = sql
    .exec<{ type: string; name: string; tbl_name: string }>(
      "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    )
    .toArray();
  for (const { type, name, tbl_name } of names)
    shape[`${type} ${name}`] =
      type === 'table'
        ? sql.exec(`SELECT * FROM pragma_table_info('${name}')`).toArray()
        : [tbl_name, ...sql.exec(`SELECT * FROM pragma_index_info('${name}')`).toArray()];
  return shape;
}

/** What an object looks like when made straight from schema.ts. */
function fromSchema(sql: SqlStorage, schema: ObjectSchema): Shape {
  for (const [name, table] of Object.entries(schema.tables)) sql.exec(createTableSql(name, table));
  for (const [name, on] of Object.entries(schema.indexes)) sql.exec(`CREATE INDEX ${name} ON ${on}`);
  return shapeOf(sql);
}

const session = (name: string) => env.RUN_SESSION.get(env.RUN_SESSION.idFromName(`object-sql-${name}`));
const queue = (name: string) => env.RUN_QUEUE.get(env.RUN_QUEUE.idFromName(`object-sql-${name}`));

/** Writes a run's object as the pre-migration code left it: tables, a run, events, a level row, a queued outbox step. */
async function oldRunObject(name: string, levelStats: readonly string[]): Promise<DurableObjectStub<RunSession>> {
  const stub = session(name);
  await runInDurableObject(stub, (_instance: RunSession, state) => {
    const sql = state.storage.sql;
    for (const statement of [...OLD_RUN_SESSION, ...levelStats]) sql.exec(statement);
    sql.exec(
      `INSERT INTO run (singleton, run_id, config, status, current_level, levels_solved, created_at, updated_at)
       VALUES (1, ?, ?, 'paused_for_user_action', 3, 2, 1000, 2000)`,
      RUN_ID,
      JSON.stringify(config),
    );
    for (const seq of [1, 2])
      sql.exec(
        'INSERT INTO events (seq, ts, type, level, json) VALUES (?, ?, ?, ?, ?)',
        seq,
        1000 + seq,
        'level_started',
        seq,
        JSON.stringify({
          type: 'level_started',
          seq,
          runId: RUN_ID,
          ts: new Date(1000 + seq).toISOString(),
          level: seq,
          attempt: 1,
          retryCount: 0,
        }),
      );
    sql.exec('INSERT INTO loop (singleton, failures, prompt_tokens) VALUES (1, 2, 321)');
    sql.exec('UPDATE schedule SET step_at = 5000, mirror_at = 6000');
    sql.exec('INSERT INTO level_stats (level, started_at, attempts, pauses, version) VALUES (3, 1000, 4, 1, 7)');
    sql.exec("INSERT INTO last_request (singleton, id, json) VALUES (1, 'x', '{}')");
  });
  return stub;
}

describe('RunSession storage migrations', () => {
  for (const [variant, levelStats] of [
    ['level_stats without pause_reasons', [OLD_LEVEL_STATS]],
    ['pause_reasons added at the end by the old ALTER', [OLD_LEVEL_STATS, OLD_PAUSE_REASONS_ALTER]],
    ['the last constructor tables', [LAST_LEVEL_STATS]],
  ] as const) {
    it(`opens an object stored before migrations (${variant}) and reads it back`, async () => {
      const stub = await oldRunObject(variant.replaceAll(' ', '-'), levelStats);
      // The first call that works on the run applies the migrations, then reads through the classes.
      expect(await stub.summary()).toMatchObject({
        id: RUN_ID,
        status: 'paused_for_user_action',
        currentLevel: 3,
        levelsSolved: 2,
      });
      const page = JSON.parse((await stub.eventPage(0, 10)) ?? 'null') as {
        events: { seq: number }[];
        lastSeq: number;
      };
      expect(page.events.map((e) => e.seq)).toEqual([1, 2]);
      expect(page.lastSeq).toBe(2);
      const after = await runInDurableObject(stub, (_instance: RunSession, state) => {
        const sql = state.storage.sql;
        return {
          levels: new LevelStats(sql).unsent().map((l) => ({ ...l.row, version: l.version })),
          loop: sql.exec('SELECT * FROM loop').one(),
          schedule: sql.exec('SELECT advance_at, mirror_at FROM schedule').one(),
          migrations: sql.exec('SELECT id, name FROM object_migrations').toArray(),
          shape: shapeOf(sql),
        };
      });
      // The old counters are not carried over: the figures are folded again from the object's own log
      // (migration 0003), so an old run reads the way a new one does.
      expect(after.levels).toEqual([
        expect.objectContaining({ level: 1, attempts: 1, pauses: 0, outcome: 'not_solved', version: 1 }),
        expect.objectContaining({ level: 2, attempts: 1, pauses: 0, outcome: 'not_solved', version: 1 }),
      ]);
      // The token sums left the loop row for the fold (0003); the failures stay.
      expect(after.loop).toEqual({ singleton: 1, checkpoint: null, resume: null, failures: 2 });
      expect(after.schedule).toEqual({ advance_at: 5000, mirror_at: 6000 });
      expect(after.migrations).toEqual([
        { id: 1, name: '0001_adopt_constructor_tables' },
        { id: 2, name: '0002_rename_schedule_step_at' },
        { id: 3, name: '0003_figures_from_the_fold' },
        { id: 4, name: '0004_message_inbox' },
        { id: 5, name: '0005_terminal_seat' },
        { id: 6, name: '0006_run_budget' },
        { id: 7, name: '0007_forks' },
        { id: 8, name: '0008_hosting_usage' },
        { id: 9, name: '0009_rowid_keys' },
      ]);
      expect(Object.keys(after.shape)).not.toContain('table last_request');
      // The migrated object has exactly the tables, columns (in order) and defaults schema.ts lists.
      const expected = await runInDurableObject(session(`schema-${variant.replaceAll(' ', '-')}`), (_i, state) =>
        fromSchema(state.storage.sql, runSessionSchema),
      );
      expect(after.shape).toEqual(expected);
    });
  }

  it('a fresh object and a migrated one end with identical table_info, each migration applied once', async () => {
    const migrated = await oldRunObject('identical-old', [OLD_LEVEL_STATS]);
    await migrated.summary();
    const migratedShape = await runInDurableObject(migrated, (_i: RunSession, state) => shapeOf(state.storage.sql));
    const fresh = await runInDurableObject(session('identical-fresh'), (_i: RunSession, state) => {
      // An object at 0001 takes only the entries after it; a second start takes none.
      const first = migrate(state.storage, runSessionMigrations.slice(0, 1), 1);
      const then = migrate(state.storage, runSessionMigrations, 2);
      const again = migrate(state.storage, runSessionMigrations, 3);
      return { first, then, again, shape: shapeOf(state.storage.sql) };
    });
    expect(fresh.first).toEqual(['0001_adopt_constructor_tables']);
    expect(fresh.then).toEqual([
      '0002_rename_schedule_step_at',
      '0003_figures_from_the_fold',
      '0004_message_inbox',
      '0005_terminal_seat',
      '0006_run_budget',
      '0007_forks',
      '0008_hosting_usage',
      '0009_rowid_keys',
    ]);
    expect(fresh.again).toEqual([]);
    expect(fresh.shape).toEqual(migratedShape);
    expect(Object.keys(fresh.shape).filter((k) => k.startsWith('table ')).length).toBe(
      Object.keys(runSessionSchema.tables).length,
    );
  });

  it('makes a new run object straight from schema.ts, every migration recorded, as a migrated one ends', async () => {
    const migrated = await oldRunObject('straight-old', [OLD_LEVEL_STATS]);
    await migrated.summary();
    const stub = session('straight-new');
    // A table of the platform's own (miniflare keeps the object's name in one) does not make the object old.
    await runInDurableObject(stub, (_i: RunSession, state) =>
      state.storage.sql.exec('CREATE TABLE __miniflare_do_name (name TEXT)'),
    );
    expect(await stub.create('run_objectsql0000000000000002', config)).toMatchObject({ status: 'queued' });
    const made = await runInDurableObject(stub, (_i: RunSession, state) => {
      const sql = state.storage.sql;
      sql.exec('DROP TABLE __miniflare_do_name');
      return {
        shape: shapeOf(sql),
        migrations: sql.exec('SELECT id, name FROM object_migrations ORDER BY id').toArray(),
        schedule: sql.exec('SELECT count(*) AS n FROM schedule').one().n,
        // Made straight from schema.ts: no migration ran, so none of their AUTOINCREMENT tables ever made this.
        replayed: sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'").one().n,
        outboxState: sql.exec('SELECT version, flushed, failures FROM outbox_state').toArray(),
        // A later start applies nothing more.
        again: migrate(state.storage, runSessionMigrations, 5, { fresh: runSessionSchema }),
      };
    });
    const migratedShape = await runInDurableObject(migrated, (_i: RunSession, state) => shapeOf(state.storage.sql));
    expect(made.shape).toEqual(migratedShape);
    expect(made.migrations).toEqual(runSessionMigrations.map((m, i) => ({ id: i + 1, name: m.name })));
    expect(made.schedule).toBe(1);
    expect(made.replayed).toBe(0);
    expect(made.outboxState).toHaveLength(1);
    expect(made.again).toEqual([]);
  });

  it('refuses storage whose recorded migrations the code names differently or does not have', async () => {
    const message = await runInDurableObject(session('edited'), (_i: RunSession, state) => {
      migrate(state.storage, runSessionMigrations, 1);
      try {
        migrate(state.storage, [{ name: '0001_something_else', up: () => undefined }], 2);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    });
    expect(message).toMatch(/records migration 1 as "0001_adopt_constructor_tables".*append-only/);
    const older = await runInDurableObject(session('edited'), (_i: RunSession, state) => {
      try {
        migrate(state.storage, runSessionMigrations.slice(0, 1), 3);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    });
    expect(older).toMatch(/records migration 2 "0002_rename_schedule_step_at", which this code does not have/);
  });
});

describe('RunQueue storage migrations', () => {
  it('opens a queue stored before batches (members without batch columns) and reads its line back', async () => {
    const read = await runInDurableObject(queue('old-line'), async (_instance: RunQueue, state) => {
      const sql = state.storage.sql;
      // The object was made by the test; its storage is rewritten as the pre-migration code left it.
      for (const table of [
        'members',
        'known_runs',
        'creation_buckets',
        'batch_caps',
        'batch_spend',
        'object_migrations',
      ])
        sql.exec(`DROP TABLE IF EXISTS ${table}`);
      for (const statement of [...OLD_MEMBERS, ...OLD_QUEUE_REST]) sql.exec(statement);
      sql.exec(
        `INSERT INTO members (run_id, provider, max_concurrent, state, priority, seq, since) VALUES
         ('run_a', 'local', 1, 'running', 1, 1, 10), ('run_b', 'local', 1, 'waiting', 1, 2, 20),
         ('run_c', 'other', NULL, 'idle', 1, 3, 30)`,
      );
      sql.exec("INSERT INTO known_runs (run_id, created_at) VALUES ('run_a', 1), ('run_b', 2)");
      // A new start of the class, over that storage.
      const started = new RunQueue(state, env);
      return {
        status: await started.status(),
        knows: [await started.knows('run_b'), await started.knows('run_z')],
        shape: shapeOf(sql),
      };
    });
    expect(read.status.running.map((m) => m.runId)).toEqual(['run_a']);
    expect(read.status.waiting).toEqual([expect.objectContaining({ runId: 'run_b', provider: 'local', position: 1 })]);
    expect(read.knows).toEqual([true, false]);
    const fresh = await runInDurableObject(queue('fresh'), (_i: RunQueue, state) => shapeOf(state.storage.sql));
    const schema = await runInDurableObject(session('queue-schema'), (_i: RunSession, state) =>
      fromSchema(state.storage.sql, runQueueSchema),
    );
    expect(read.shape).toEqual(fresh);
    expect(fresh).toEqual(schema);
  });
});
