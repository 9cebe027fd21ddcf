// The storage history of a run's Durable Object (RunSession), oldest first. To change a table, add an
// entry at the end and update schema.ts to match; never edit an entry that has shipped.
import type { ObjectMigration } from './migrate.ts';
import { columnsOf } from './migrate.ts';

/** level_stats's columns in the order its CREATE has them since pauses were counted by reason. */
const LEVEL_STATS_COLUMNS = [
  'level',
  'started_at',
  'ended_at',
  'attempts',
  'retries',
  'pauses',
  'solved',
  'helped',
  'commands',
  'prompt_tokens',
  'completion_tokens',
  'cost_usd',
  'pause_reasons',
  'version',
  'sent',
];

const levelStatsTable = (name: string) => `CREATE TABLE ${name} (
  level INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, ended_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0,
  retries INTEGER NOT NULL DEFAULT 0, pauses INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0,
  helped INTEGER NOT NULL DEFAULT 0, commands INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0, pause_reasons TEXT NOT NULL DEFAULT '{}',
  version INTEGER NOT NULL DEFAULT 0, sent INTEGER NOT NULL DEFAULT 0)`;

/**
 * 0001: the tables as the constructors made them before migrations existed, so an object stored by that
 * code (or made fresh) ends in one shape. A level_stats made before pause_reasons, or given it at its end
 * by the old ALTER, is rebuilt in the CREATE's column order; the model-request chain's old table goes.
 */
const adoptConstructorTables: ObjectMigration = {
  name: '0001_adopt_constructor_tables',
  up(sql) {
    sql.exec(`CREATE TABLE IF NOT EXISTS run (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
      run_id TEXT NOT NULL, config TEXT NOT NULL, status TEXT NOT NULL,
      current_level INTEGER NOT NULL, levels_solved INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      started_at INTEGER, ended_at INTEGER, last_error TEXT, pending_action TEXT)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS events (
      seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, type TEXT NOT NULL, level INTEGER, json TEXT NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS loop (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), checkpoint TEXT, resume TEXT,
      failures INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
      completion_tokens INTEGER NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0)`);
    sql.exec(
      'CREATE TABLE IF NOT EXISTS checkpoint_items (key TEXT NOT NULL, idx INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (key, idx))',
    );
    sql.exec('CREATE TABLE IF NOT EXISTS verifications (run_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)');
    sql.exec(
      'CREATE TABLE IF NOT EXISTS schedule (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), step_at INTEGER, mirror_at INTEGER)',
    );
    sql.exec('INSERT OR IGNORE INTO schedule (singleton) VALUES (1)');
    sql.exec(
      'CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, row TEXT NOT NULL)',
    );
    sql.exec(`CREATE TABLE IF NOT EXISTS outbox_state (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version INTEGER NOT NULL DEFAULT 0,
      flushed INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0)`);
    sql.exec('INSERT OR IGNORE INTO outbox_state (singleton) VALUES (1)');
    sql.exec('DROP TABLE IF EXISTS last_request');
    const had = columnsOf(sql, 'level_stats');
    if (had.length === 0) return void sql.exec(levelStatsTable('level_stats'));
    if (had.join() === LEVEL_STATS_COLUMNS.join()) return;
    const kept = LEVEL_STATS_COLUMNS.filter((c) => had.includes(c)).join(', ');
    sql.exec(levelStatsTable('level_stats_0001'));
    sql.exec(`INSERT INTO level_stats_0001 (${kept}) SELECT ${kept} FROM level_stats`);
    sql.exec('DROP TABLE level_stats');
    sql.exec('ALTER TABLE level_stats_0001 RENAME TO level_stats');
  },
};

/** 0002: the alarm's wake-up for the agent is an advance (one proxy call); "step" is what the proxy stores. */
const renameScheduleStepAt: ObjectMigration = {
  name: '0002_rename_schedule_step_at',
  up(sql) {
    sql.exec('ALTER TABLE schedule RENAME COLUMN step_at TO advance_at');
  },
};

/**
 * 0003: a level's figures are what the one fold over the log makes (schema/run-record.ts), stored whole,
 * in place of level_stats's counters, which counted help their own way, and of the loop row's token and
 * cost sums. Nothing is copied: with no record_place row, LevelStats folds the object's own event log
 * once when it starts.
 */
const figuresFromTheFold: ObjectMigration = {
  name: '0003_figures_from_the_fold',
  up(sql) {
    sql.exec(`CREATE TABLE level_figures (
      level INTEGER PRIMARY KEY, figures TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0, sent INTEGER NOT NULL DEFAULT 0)`);
    sql.exec(`CREATE TABLE record_place (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), place TEXT NOT NULL, folded_seq INTEGER NOT NULL)`);
    sql.exec('DROP TABLE level_stats');
    for (const column of ['prompt_tokens', 'completion_tokens', 'cost_usd'])
      sql.exec(`ALTER TABLE loop DROP COLUMN ${column}`);
  },
};

/** 0004: a person's messages the agent has not read yet (issue 30), kept until the step that reads them is stored. */
const messageInbox: ObjectMigration = {
  name: '0004_message_inbox',
  up(sql) {
    sql.exec('CREATE TABLE inbox (seq INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  },
};

/**
 * 0005: who holds the run's terminal (issue 30), while it is open. The relay itself lives in memory, so a
 * row found by an object that has just started is a terminal a restart ended (terminal-seat.ts).
 */
const terminalSeat: ObjectMigration = {
  name: '0005_terminal_seat',
  up(sql) {
    sql.exec(`CREATE TABLE terminal (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), holder TEXT NOT NULL, level INTEGER NOT NULL,
      opened_at INTEGER NOT NULL, started INTEGER NOT NULL DEFAULT 0)`);
  },
};

/**
 * 0006: the run's caps as raised (issue 31; null: the config's own), the dollars its batch's owner was
 * last asked for when a call yielded for more, the batch's cap and spent as last heard (for the snapshot),
 * and whether the batch has a cap at all (a batch made without one never gets one: it is asked once).
 */
const runBudget: ObjectMigration = {
  name: '0006_run_budget',
  up(sql) {
    sql.exec(`CREATE TABLE budget (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), caps TEXT, need_usd REAL, batch TEXT,
      batch_capped INTEGER)`);
  },
};

/**
 * 0007: forks (issue 32, docs/forks.md). Each step's checkpoint is kept (a whole one at a call's first step, a
 * patch after; a pause's row holds neither: the checkpoint it paused at), keyed by the seq of the step's last
 * event; a fork's run row names its parent and the parent's seq it starts from; a parent lists its forks.
 */
const forks: ObjectMigration = {
  name: '0007_forks',
  up(sql) {
    sql.exec(`CREATE TABLE checkpoint_history (
      id INTEGER PRIMARY KEY AUTOINCREMENT, seq INTEGER NOT NULL, whole TEXT, patch TEXT)`);
    sql.exec('CREATE INDEX checkpoint_history_seq ON checkpoint_history (seq)');
    sql.exec('ALTER TABLE run ADD COLUMN parent_id TEXT');
    sql.exec('ALTER TABLE run ADD COLUMN fork_seq INTEGER');
    sql.exec('CREATE TABLE forks (run_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, created_at INTEGER NOT NULL)');
  },
};

/**
 * 0008: what Cloudflare bills for the object, as it counted it (issue 34, object-usage.ts): saved with each mirror,
 * so a count outlives an eviction. An object made before starts from zero.
 */
const hostingUsage: ObjectMigration = {
  name: '0008_hosting_usage',
  up(sql) {
    sql.exec(`CREATE TABLE usage (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), requests INTEGER NOT NULL DEFAULT 0,
      socket_messages INTEGER NOT NULL DEFAULT 0, rows_read INTEGER NOT NULL DEFAULT 0,
      rows_written INTEGER NOT NULL DEFAULT 0, alarm_writes INTEGER NOT NULL DEFAULT 0,
      d1_rows_read INTEGER NOT NULL DEFAULT 0, d1_rows_written INTEGER NOT NULL DEFAULT 0,
      active_ms INTEGER NOT NULL DEFAULT 0)`);
  },
};

/**
 * 0009: the outbox's and the checkpoint history's ids are plain rowids, no longer AUTOINCREMENT, which wrote
 * sqlite_sequence's row with every insert: a row written per step twice over (issue 34). The history is never
 * deleted from, so its ids still only grow; an outbox id may come back once every row before it was sent,
 * which nothing minds (a flush deletes what it sent, and D1's rows are keyed by the run's seq).
 */
const rowidKeys: ObjectMigration = {
  name: '0009_rowid_keys',
  up(sql) {
    sql.exec('CREATE TABLE outbox_0009 (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, row TEXT NOT NULL)');
    sql.exec('INSERT INTO outbox_0009 (id, kind, row) SELECT id, kind, row FROM outbox');
    sql.exec('DROP TABLE outbox');
    sql.exec('ALTER TABLE outbox_0009 RENAME TO outbox');
    sql.exec(
      'CREATE TABLE checkpoint_history_0009 (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, whole TEXT, patch TEXT)',
    );
    sql.exec(
      'INSERT INTO checkpoint_history_0009 (id, seq, whole, patch) SELECT id, seq, whole, patch FROM checkpoint_history',
    );
    sql.exec('DROP TABLE checkpoint_history');
    sql.exec('ALTER TABLE checkpoint_history_0009 RENAME TO checkpoint_history');
    sql.exec('CREATE INDEX checkpoint_history_seq ON checkpoint_history (seq)');
  },
};

/** RunSession's migrations, applied in order when the object first works on its run (run-session-parts.ts). */
export const runSessionMigrations: readonly ObjectMigration[] = [
  adoptConstructorTables,
  renameScheduleStepAt,
  figuresFromTheFold,
  messageInbox,
  terminalSeat,
  runBudget,
  forks,
  hostingUsage,
  rowidKeys,
];
