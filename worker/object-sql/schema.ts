// Every table and column of the Durable Objects' own SQLite, as they stand after the last migration:
// the one place to read what an object stores. The migrations (run-session-migrations.ts,
// run-queue-migrations.ts) build it; test/worker/object-sql.test.ts checks that they build exactly this.

/** A table as it stands now: its columns in order with their SQL type and constraints, and any table constraint. */
export type TableSpec = {
  columns: Readonly<Record<string, string>>;
  /** A table constraint after the columns, e.g. a composite primary key. */
  constraint?: string;
};

/** The tables (and indexes) of one Durable Object class. */
export type ObjectSchema = {
  tables: Readonly<Record<string, TableSpec>>;
  /** Index name → its `ON table (columns)` part. */
  indexes: Readonly<Record<string, string>>;
  /** Rows every object starts with (singleton rows the migrations insert), as INSERT statements. */
  rows?: readonly string[];
};

/** The migration runner's own record (migrate.ts), in every object that has tables, like D1's d1_migrations. */
export const migrationsTable: TableSpec = {
  columns: { id: 'INTEGER PRIMARY KEY', name: 'TEXT NOT NULL', applied_at: 'INTEGER NOT NULL' },
};

const SINGLETON = 'INTEGER PRIMARY KEY CHECK (singleton = 1)';

/** One run's object (worker/run-session/run-session.ts). Tables are made by create(), never when an id is only reached. */
export const runSessionSchema: ObjectSchema = {
  tables: {
    object_migrations: migrationsTable,
    /** The run: one row. */
    run: {
      columns: {
        singleton: SINGLETON,
        run_id: 'TEXT NOT NULL',
        config: 'TEXT NOT NULL',
        status: 'TEXT NOT NULL',
        current_level: 'INTEGER NOT NULL',
        levels_solved: 'INTEGER NOT NULL DEFAULT 0',
        created_at: 'INTEGER NOT NULL',
        updated_at: 'INTEGER NOT NULL',
        started_at: 'INTEGER',
        ended_at: 'INTEGER',
        last_error: 'TEXT',
        pending_action: 'TEXT',
        /** A fork's parent run and the parent's seq it starts from (docs/forks.md); null on a run that is no fork. */
        parent_id: 'TEXT',
        fork_seq: 'INTEGER',
      },
    },
    /** The event log, numbered by seq (run-store.ts). */
    events: {
      columns: {
        seq: 'INTEGER PRIMARY KEY',
        ts: 'INTEGER NOT NULL',
        type: 'TEXT NOT NULL',
        level: 'INTEGER',
        json: 'TEXT NOT NULL',
      },
    },
    /** The agent's place and the run's totals: one row (run-store.ts, checkpoint-store.ts). */
    loop: {
      columns: {
        singleton: SINGLETON,
        checkpoint: 'TEXT',
        resume: 'TEXT',
        failures: 'INTEGER NOT NULL DEFAULT 0',
      },
    },
    /** Appended checkpoint list items, one per row (checkpoint-store.ts). */
    checkpoint_items: {
      columns: { key: 'TEXT NOT NULL', idx: 'INTEGER NOT NULL', json: 'TEXT NOT NULL' },
      constraint: 'PRIMARY KEY (key, idx)',
    },
    /** Verification runs of this run. */
    verifications: { columns: { run_id: 'TEXT PRIMARY KEY', created_at: 'INTEGER NOT NULL' } },
    /** The two wake-ups sharing the alarm, the agent's next advance and the outbox's retry: one row (run-schedule.ts). */
    schedule: { columns: { singleton: SINGLETON, advance_at: 'INTEGER', mirror_at: 'INTEGER' } },
    /** Rows waiting for D1, one entry per step (d1-outbox.ts). */
    outbox: {
      columns: { id: 'INTEGER PRIMARY KEY', kind: 'TEXT NOT NULL', row: 'TEXT NOT NULL' },
    },
    /** version counts changes to the run row; flushed is the version D1 last took: one row. */
    outbox_state: {
      columns: {
        singleton: SINGLETON,
        version: 'INTEGER NOT NULL DEFAULT 0',
        flushed: 'INTEGER NOT NULL DEFAULT 0',
        failures: 'INTEGER NOT NULL DEFAULT 0',
      },
    },
    /** Each level's figures as the one fold (schema/run-record.ts) made them, and the version D1 has (level-stats.ts). */
    level_figures: {
      columns: {
        level: 'INTEGER PRIMARY KEY',
        figures: 'TEXT NOT NULL',
        version: 'INTEGER NOT NULL DEFAULT 0',
        sent: 'INTEGER NOT NULL DEFAULT 0',
      },
    },
    /** Where the fold stands between events, and the last event it folded. */
    record_place: {
      columns: {
        singleton: SINGLETON,
        place: 'TEXT NOT NULL',
        folded_seq: 'INTEGER NOT NULL',
      },
    },
    /** A person's messages the agent has not read, by the seq of their message_sent (message-inbox.ts). */
    inbox: { columns: { seq: 'INTEGER PRIMARY KEY', text: 'TEXT NOT NULL' } },
    /** Who holds the run's terminal while it is open: one row or none (terminal-seat.ts). */
    terminal: {
      columns: {
        singleton: SINGLETON,
        holder: 'TEXT NOT NULL',
        level: 'INTEGER NOT NULL',
        opened_at: 'INTEGER NOT NULL',
        /** 1 once the login is up (takeover_started stored); 0 while the agent finishes its step. */
        started: 'INTEGER NOT NULL DEFAULT 0',
      },
    },
    /** The run's caps and its batch's budget as last heard: one row or none (run-budget.ts). */
    budget: {
      columns: {
        singleton: SINGLETON,
        /** The caps as raised (JSON, schema/budget.ts runCapsSchema); null: config.caps as made. */
        caps: 'TEXT',
        /** Dollars a yielded call asked its batch for; the next reservation asks for them. */
        need_usd: 'REAL',
        /** The batch's {id, maxCostUsd, spentUsd} as the queue last said (JSON); null: none heard. */
        batch: 'TEXT',
        /** 1: the run's batch has a cost cap; 0: it has none (and never will); null: not asked yet. */
        batch_capped: 'INTEGER',
      },
    },
    /**
     * Each step's checkpoint, for forks (checkpoint-history.ts): seq is the step's last event; whole at a call's
     * first step, patch after it, neither at a pause (the checkpoint it paused at).
     */
    checkpoint_history: {
      columns: { id: 'INTEGER PRIMARY KEY', seq: 'INTEGER NOT NULL', whole: 'TEXT', patch: 'TEXT' },
    },
    /** The forks made of this run, with the seq each starts from (fork-origin.ts). */
    forks: { columns: { run_id: 'TEXT PRIMARY KEY', seq: 'INTEGER NOT NULL', created_at: 'INTEGER NOT NULL' } },
    /** What Cloudflare bills for the object, as it counted it (object-usage.ts, schema/hosting.ts): one row. */
    usage: {
      columns: {
        singleton: SINGLETON,
        requests: 'INTEGER NOT NULL DEFAULT 0',
        socket_messages: 'INTEGER NOT NULL DEFAULT 0',
        rows_read: 'INTEGER NOT NULL DEFAULT 0',
        rows_written: 'INTEGER NOT NULL DEFAULT 0',
        alarm_writes: 'INTEGER NOT NULL DEFAULT 0',
        d1_rows_read: 'INTEGER NOT NULL DEFAULT 0',
        d1_rows_written: 'INTEGER NOT NULL DEFAULT 0',
        active_ms: 'INTEGER NOT NULL DEFAULT 0',
      },
    },
  },
  indexes: { checkpoint_history_seq: 'checkpoint_history (seq)' },
  rows: ['INSERT INTO schedule (singleton) VALUES (1)', 'INSERT INTO outbox_state (singleton) VALUES (1)'],
};

/** The one scheduler object, named "queue" (run-queue.ts). */
export const runQueueSchema: ObjectSchema = {
  tables: {
    object_migrations: migrationsTable,
    /** Every run the queue knows: waiting, running or idle (queue-line.ts). */
    members: {
      columns: {
        run_id: 'TEXT PRIMARY KEY',
        provider: 'TEXT NOT NULL',
        max_concurrent: 'INTEGER',
        state: 'TEXT NOT NULL',
        priority: 'INTEGER NOT NULL',
        seq: 'INTEGER NOT NULL',
        since: 'INTEGER NOT NULL',
        batch_id: 'TEXT',
        batch_limit: 'INTEGER',
      },
    },
    /** Every run id ever made (run-registry.ts). */
    known_runs: { columns: { run_id: 'TEXT PRIMARY KEY', created_at: 'INTEGER NOT NULL' } },
    /** Run creations left per client (creation-buckets.ts). */
    creation_buckets: {
      columns: { client: 'TEXT PRIMARY KEY', tokens: 'REAL NOT NULL', updated_at: 'INTEGER NOT NULL' },
    },
    /** Each capped batch's cost cap, and whether the cap stopped a run (batch-ledger.ts). */
    batch_caps: {
      columns: {
        batch_id: 'TEXT PRIMARY KEY',
        max_cost_usd: 'REAL NOT NULL',
        reached: 'INTEGER NOT NULL',
        runs: 'INTEGER NOT NULL',
        created_at: 'INTEGER NOT NULL',
      },
    },
    /** What each run of a capped batch has spent, and holds for its call in progress. */
    batch_spend: {
      columns: {
        batch_id: 'TEXT NOT NULL',
        run_id: 'TEXT NOT NULL',
        spent_usd: 'REAL NOT NULL',
        reserved_usd: 'REAL NOT NULL',
        ended: 'INTEGER NOT NULL',
      },
      constraint: 'PRIMARY KEY (batch_id, run_id)',
    },
  },
  indexes: { members_line: 'members (state, priority, seq)' },
};

/** The CREATE TABLE statement of a table as the schema lists it. */
export function createTableSql(name: string, table: TableSpec, options: { ifNotExists?: boolean } = {}): string {
  const parts = Object.entries(table.columns).map(([column, definition]) => `${column} ${definition}`);
  if (table.constraint) parts.push(table.constraint);
  return `CREATE TABLE ${options.ifNotExists ? 'IF NOT EXISTS ' : ''}${name} (${parts.join(', ')})`;
}
