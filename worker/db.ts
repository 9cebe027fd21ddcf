// D1 access through drizzle: the run index that the run list and analytics read.
import { count, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { runs } from '../schema/db.ts';

/** A drizzle client over the D1 binding. */
export function database(env: Env) {
  return drizzle(env.DB);
}

/** How many runs the index holds; also proves the migrations were applied. */
export async function countRuns(env: Env): Promise<number> {
  const [row] = await database(env).select({ n: count() }).from(runs);
  return row?.n ?? 0;
}

/** A run's row, or undefined. */
export async function findRun(env: Env, id: string) {
  const [row] = await database(env).select().from(runs).where(eq(runs.id, id));
  return row;
}
