// Applies a Durable Object class's numbered migrations to its SQLite, each once and in order, and
// records them in object_migrations (id, name, applied_at), as D1 records its own in d1_migrations.
// The classes that read and write the tables never make or alter them.
import { createTableSql, migrationsTable } from './schema.ts';

/** One step of a class's storage history. Its place in the list (from 1) is its id; never edit or reorder one. */
export type ObjectMigration = {
  /** `NNNN_verb_noun`, like a D1 migration's file name. */
  name: string;
  /** Runs inside the migration's transaction, which also records it. */
  up: (sql: SqlStorage) => void;
};

/**
 * Brings the object's storage up to the last migration; returns the names it applied. Synchronous,
 * so nothing else runs in the object meanwhile. Throws when the record and the list disagree (an
 * edited or reordered migration), so an object is never half-understood.
 */
export function migrate(storage: DurableObjectStorage, migrations: readonly ObjectMigration[], now: number): string[] {
  const sql = storage.sql;
  sql.exec(createTableSql('object_migrations', migrationsTable, { ifNotExists: true }));
  const recorded = sql
    .exec<{ id: number; name: string }>('SELECT id, name FROM object_migrations ORDER BY id')
    .toArray();
  for (const { id, name } of recorded) {
    const expected = migrations[id - 1]?.name;
    if (expected === undefined)
      throw new Error(
        `this object's storage records migration ${id} "${name}", which this code does not have: ` +
          'it was stored by a newer version; deploy that version (or one after it) again',
      );
    if (expected !== name)
      throw new Error(
        `this object's storage records migration ${id} as "${name}", but the code names it "${expected}": ` +
          'migrations are append-only; restore the list in worker/object-sql/ and add a new entry instead',
      );
  }
  const applied: string[] = [];
  migrations.slice(recorded.length).forEach((migration, i) => {
    const id = recorded.length + i + 1;
    storage.transactionSync(() => {
      migration.up(sql);
      sql.exec('INSERT INTO object_migrations (id, name, applied_at) VALUES (?, ?, ?)', id, migration.name, now);
    });
    applied.push(migration.name);
  });
  return applied;
}

/** The column names of a table in order, or [] when it does not exist. Only for a migration's own decisions. */
export function columnsOf(sql: SqlStorage, table: string): string[] {
  return sql
    .exec<{ name: string }>('SELECT name FROM pragma_table_info(?)', table)
    .toArray()
    .map((c) => c.name);
}
