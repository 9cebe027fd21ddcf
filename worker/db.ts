// D1 access through drizzle: the run index that the run list and analytics read.
import { count, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { runs } from '../schema/db.ts';
import type { RunSummary } from '../schema/run.ts';

/** A drizzle client over the D1 binding. */
export function database(env: Env) {
  return drizzle(env.DB);
}

/** How many runs the index holds; also proves the migrations were applied. */
export async function countRuns(env: Env): Promise<number> {
  const [row] = await database(env).select({ n: count() }).from(runs);
  return row?.n ?? 0;
}

/** Inserts or refreshes a run's row from its Durable Object's summary. */
export async function upsertRun(env: Env, run: RunSummary): Promise<void> {
  const row = {
    id: run.id,
    status: run.status,
    target: run.config.target,
    model: run.config.model,
    startLevel: run.config.startLevel,
    endLevel: run.config.endLevel,
    maxRetries: run.config.maxRetries,
    budget: run.config.budget,
    currentLevel: run.currentLevel,
    levelsSolved: run.levelsSolved,
    lastError: run.lastError,
    createdAt: Date.parse(run.createdAt),
    updatedAt: Date.parse(run.updatedAt),
    startedAt: run.startedAt ? Date.parse(run.startedAt) : null,
    endedAt: run.endedAt ? Date.parse(run.endedAt) : null,
  };
  const { id: _id, createdAt: _createdAt, ...changes } = row;
  await database(env).insert(runs).values(row).onConflictDoUpdate({ target: runs.id, set: changes });
}

/** A run's row, or undefined. */
export async function findRun(env: Env, id: string) {
  const [row] = await database(env).select().from(runs).where(eq(runs.id, id));
  return row;
}
