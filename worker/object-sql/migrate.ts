// Applies a Durable Object class's numbered migrations to its SQLite, each once and in order, and
// records them in object_migrations (id, name, applied_at), as D1 records its own in d1_migrations.
// The classes that read and write the tables never make or alter them.
import { createTableSql, migrationsTable } from './schema.ts';
import type { ObjectSchema } from './schema.ts';

/** One step of a class's storage history. Its place in the list (from 1) is its id; never edit or reorder one. */
export type ObjectMigration = {
  /** `NNNN_verb_noun`, like a D1 migration's file name. */
  name: string;
  /** Runs inside the migration's transaction, which also records it. */
  up: (sql: SqlStorage) => void;
};

/** How migrate() reaches the object's storage. */
export type MigrateOptions = {
  /** The storage's SQLite, or a wrapper of it (a run's object counts the rows each statement writes). */
  sql?: SqlStorage;
  /**
   * The schema the migrations end in (schema.ts): an object with no tables yet is made from it at once, in one
   * statement, and every migration recorded as applied, instead of replaying each. Replaying them held ~30 more
   * prepared statements in every run's object for its life (a fifth of its memory while it runs) and wrote
   * its tables several times over.
   */
  fresh?: ObjectSchema;
};

/**
 * Brings the object's storage up to the last migration; returns the names it applied. Synchronous,
 * so nothing else runs in the object meanwhile. Throws when the record and the list disagree (an
 * edited or reordered migration), so an object is never half-understood.
 */
export function migrate(
  storage: DurableObjectStorage,
  migrations: readonly ObjectMigration[],
  now: number,
  options: MigrateOptions = {},
): string[] {
  const sql = options.sql ?? storage.sql;
  if (options.fresh && !holdsAnyOf(sql, options.fresh)) return makeFresh(storage, sql, options.fresh, migrations, now);
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

/**
 * Whether the object holds any table the schema names (or ever named: object_migrations and run were there
 * before migrations). The platform's own tables do not count: workerd's _cf_*, miniflare's __miniflare_do_name.
 */
function holdsAnyOf(sql: SqlStorage, schema: ObjectSchema): boolean {
  const names = Object.keys(schema.tables);
  return (
    sql
      .exec(
        `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN (${names.map(() => '?').join(', ')}) LIMIT 1`,
        ...names,
      )
      .toArray().length > 0
  );
}

/** Makes an empty object's tables, indexes and first rows straight from its schema, every migration recorded. */
function makeFresh(
  storage: DurableObjectStorage,
  sql: SqlStorage,
  schema: ObjectSchema,
  migrations: readonly ObjectMigration[],
  now: number,
): string[] {
  const statements = [
    ...Object.entries(schema.tables).map(([name, table]) => createTableSql(name, table)),
    ...Object.entries(schema.indexes).map(([name, on]) => `CREATE INDEX ${name} ON ${on}`),
    ...(schema.rows ?? []),
  ];
  storage.transactionSync(() => {
    sql.exec(statements.join(';\n'));
    migrations.forEach((migration, i) =>
      sql.exec('INSERT INTO object_migrations (id, name, applied_at) VALUES (?, ?, ?)', i + 1, migration.name, now),
    );
  });
  return migrations.map((m) => m.name);
}

/** The column names of a table in order, or [] when it does not exist. Only for a migration's own decisions. */
export function columnsOf(sql: SqlStorage, table: string): string[] {
  return sql
    .exec<{ name: string }>('SELECT name FROM pragma_table_info(?)', table)
    .toArray()
    .map((c) => c.name);
}
