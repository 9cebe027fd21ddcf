// A run's Durable Object as the code from before object migrations stored it: the exact statements its
// constructors ran, shared by the migration test and the outcome re-fold test.

/** The exact statements the constructors ran before migrations, per table, as objects in the field have them. */
export const OLD_RUN_SESSION = [
  `CREATE TABLE IF NOT EXISTS run (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
      run_id TEXT NOT NULL, config TEXT NOT NULL, status TEXT NOT NULL,
      current_level INTEGER NOT NULL, levels_solved INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      started_at INTEGER, ended_at INTEGER, last_error TEXT, pending_action TEXT)`,
  `CREATE TABLE IF NOT EXISTS events (
      seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, type TEXT NOT NULL, level INTEGER, json TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS loop (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), checkpoint TEXT, resume TEXT,
      failures INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
      completion_tokens INTEGER NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0)`,
  'CREATE TABLE IF NOT EXISTS verifications (run_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)',
  'CREATE TABLE IF NOT EXISTS checkpoint_items (key TEXT NOT NULL, idx INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (key, idx))',
  'CREATE TABLE IF NOT EXISTS schedule (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), step_at INTEGER, mirror_at INTEGER)',
  'INSERT OR IGNORE INTO schedule (singleton) VALUES (1)',
  'CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, row TEXT NOT NULL)',
  `CREATE TABLE IF NOT EXISTS outbox_state (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version INTEGER NOT NULL DEFAULT 0,
      flushed INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0)`,
  'INSERT OR IGNORE INTO outbox_state (singleton) VALUES (1)',
  // The model-request chain's table from before it moved to memory.
  `CREATE TABLE IF NOT EXISTS last_request (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), id TEXT NOT NULL,
      json TEXT NOT NULL, deltas INTEGER NOT NULL DEFAULT 0)`,
];

/** level_stats as made before pauses were counted by reason (d9a368f^). */
export const OLD_LEVEL_STATS = `CREATE TABLE IF NOT EXISTS level_stats (
      level INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, ended_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0,
      retries INTEGER NOT NULL DEFAULT 0, pauses INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0,
      helped INTEGER NOT NULL DEFAULT 0, commands INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
      completion_tokens INTEGER NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0,
      version INTEGER NOT NULL DEFAULT 0, sent INTEGER NOT NULL DEFAULT 0)`;
/** The constructor's later ALTER, which put the column at the end of such a table. */
export const OLD_PAUSE_REASONS_ALTER = `ALTER TABLE level_stats ADD COLUMN pause_reasons TEXT NOT NULL DEFAULT '{}'`;
/** level_stats as the last constructor made it. */
export const LAST_LEVEL_STATS = `CREATE TABLE IF NOT EXISTS level_stats (
      level INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, ended_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0,
      retries INTEGER NOT NULL DEFAULT 0, pauses INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0,
      helped INTEGER NOT NULL DEFAULT 0, commands INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
      completion_tokens INTEGER NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0, pause_reasons TEXT NOT NULL DEFAULT '{}',
      version INTEGER NOT NULL DEFAULT 0, sent INTEGER NOT NULL DEFAULT 0)`;
