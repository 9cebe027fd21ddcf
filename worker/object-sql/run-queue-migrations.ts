// The storage history of the queue's Durable Object (RunQueue), oldest first. To change a table, add
// an entry at the end and update schema.ts to match; never edit an entry that has shipped.
import type { ObjectMigration } from './migrate.ts';
import { columnsOf } from './migrate.ts';

/**
 * 0001: the tables as the constructors made them before migrations existed, so an object stored by that
 * code (or made fresh) ends in one shape; a line made before batches gets their two columns.
 */
const adoptConstructorTables: ObjectMigration = {
  name: '0001_adopt_constructor_tables',
  up(sql) {
    sql.exec(`CREATE TABLE IF NOT EXISTS members (
      run_id TEXT PRIMARY KEY, provider TEXT NOT NULL, max_concurrent INTEGER,
      state TEXT NOT NULL, priority INTEGER NOT NULL, seq INTEGER NOT NULL, since INTEGER NOT NULL)`);
    sql.exec('CREATE INDEX IF NOT EXISTS members_line ON members (state, priority, seq)');
    const columns = columnsOf(sql, 'members');
    if (!columns.includes('batch_id')) sql.exec('ALTER TABLE members ADD COLUMN batch_id TEXT');
    if (!columns.includes('batch_limit')) sql.exec('ALTER TABLE members ADD COLUMN batch_limit INTEGER');
    sql.exec('CREATE TABLE IF NOT EXISTS known_runs (run_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)');
    sql.exec(
      'CREATE TABLE IF NOT EXISTS creation_buckets (client TEXT PRIMARY KEY, tokens REAL NOT NULL, updated_at INTEGER NOT NULL)',
    );
  },
};

/** 0002: batches' cost caps and what each run spent and holds against them (issue 31, batch-ledger.ts). */
const batchBudgets: ObjectMigration = {
  name: '0002_batch_budgets',
  up(sql) {
    sql.exec(
      'CREATE TABLE batch_caps (batch_id TEXT PRIMARY KEY, max_cost_usd REAL NOT NULL, reached INTEGER NOT NULL, runs INTEGER NOT NULL, created_at INTEGER NOT NULL)',
    );
    sql.exec(
      'CREATE TABLE batch_spend (batch_id TEXT NOT NULL, run_id TEXT NOT NULL, spent_usd REAL NOT NULL, reserved_usd REAL NOT NULL, ended INTEGER NOT NULL, PRIMARY KEY (batch_id, run_id))',
    );
  },
};

/** RunQueue's migrations, applied in order in its constructor. */
export const runQueueMigrations: readonly ObjectMigration[] = [adoptConstructorTables, batchBudgets];
