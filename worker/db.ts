// D1 access through drizzle: the run index that the run list and analytics read.
import { and, asc, count, desc, eq, gt, isNotNull, lt, lte, or } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { llmCalls, runs } from '../schema/db.ts';
import type { BatchList } from '../schema/board.ts';
import type { RunList, RunListItem, RunStatus } from '../schema/run.ts';
import { FINAL_STATUSES, runConfigFieldsSchema } from '../schema/run.ts';
import { runTimes } from './run-times.ts';

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

/** A page of the run list, newest first. The cursor is "createdAt:id" of the last row shown. */
export async function listRuns(
  env: Env,
  query: { status?: RunStatus; limit: number; cursor?: string },
): Promise<RunList> {
  const conditions = [];
  if (query.status) conditions.push(eq(runs.status, query.status));
  if (query.cursor) {
    const [at, id] = query.cursor.split(':') as [string, string];
    const createdAt = Number(at);
    conditions.push(or(lt(runs.createdAt, createdAt), and(eq(runs.createdAt, createdAt), lt(runs.id, id))));
  }
  const rows = await database(env)
    .select()
    .from(runs)
    .where(and(...conditions))
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    runs: page.map(toListItem),
    nextCursor: rows.length > query.limit && last ? `${last.createdAt}:${last.id}` : null,
  };
}

/** A batch's runs, oldest first. */
export async function listBatchRuns(env: Env, batchId: string): Promise<RunListItem[]> {
  const rows = await database(env)
    .select()
    .from(runs)
    .where(eq(runs.batchId, batchId))
    .orderBy(asc(runs.createdAt), asc(runs.id));
  return rows.map(toListItem);
}

/** The newest batches first, each with its run count, how many have ended, and its models. */
export async function listBatches(env: Env, limit = 50): Promise<BatchList> {
  const final = FINAL_STATUSES.map((s) => `'${s}'`).join(', ');
  const { results } = await env.DB.prepare(
    `SELECT batch_id AS id, min(created_at) AS created, count(*) AS runs, sum(status IN (${final})) AS done, group_concat(DISTINCT model) AS models
     FROM runs WHERE batch_id IS NOT NULL GROUP BY batch_id ORDER BY created DESC LIMIT ?`,
  )
    .bind(limit)
    .all<{ id: string; created: number; runs: number; done: number; models: string }>();
  return {
    batches: results.map((r) => ({
      id: r.id,
      createdAt: new Date(r.created).toISOString(),
      runs: r.runs,
      done: r.done,
      models: r.models.split(','),
    })),
  };
}

function toListItem(row: typeof runs.$inferSelect): RunListItem {
  return {
    id: row.id,
    config: runConfigFieldsSchema.parse({
      target: row.target,
      startLevel: row.startLevel,
      endLevel: row.endLevel,
      model: row.model,
      maxRetries: row.maxRetries,
      budget: row.budget,
      ...(row.batchId ? { batchId: row.batchId } : {}),
      // A run made before worlds were recorded names none.
      ...(row.world === 'shared' || row.world === 'private' ? { world: row.world } : {}),
    }),
    status: row.status as RunStatus,
    currentLevel: row.currentLevel,
    levelsSolved: row.levelsSolved,
    ...runTimes(row.createdAt, row.updatedAt, row.startedAt, row.endedAt),
    lastError: row.lastError,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    costUsd: row.costUsd,
    // A fork names its parent in the list too (docs/forks.md).
    ...(row.parentId && row.forkSeq ? { parentId: row.parentId, forkSeq: row.forkSeq } : {}),
  };
}

/** A model call's row and the rows its stored request needs to be rebuilt (newest first). */
export async function llmCallWithChain(env: Env, runId: string, seq: number, chainRows: number) {
  const db = database(env);
  const [row] = await db
    .select()
    .from(llmCalls)
    .where(eq(llmCalls.id, `${runId}:${seq}`));
  if (!row) return null;
  const chain = await db
    .select({ id: llmCalls.id, request: llmCalls.request })
    .from(llmCalls)
    .where(and(eq(llmCalls.runId, runId), lte(llmCalls.seq, seq), isNotNull(llmCalls.request)))
    .orderBy(desc(llmCalls.seq))
    .limit(chainRows);
  return { row, chain };
}

/** A page of a run's model calls after `afterSeq`, oldest first, with their stored requests (the archive's llm/). */
export async function llmCallsPage(env: Env, runId: string, afterSeq: number, limit: number) {
  return database(env)
    .select()
    .from(llmCalls)
    .where(and(eq(llmCalls.runId, runId), gt(llmCalls.seq, afterSeq)))
    .orderBy(asc(llmCalls.seq))
    .limit(limit);
}

/** One of a run's model calls' stored request by its id, or undefined. */
export async function storedRequest(env: Env, runId: string, id: string): Promise<{ request: unknown } | undefined> {
  const [row] = await database(env)
    .select({ request: llmCalls.request })
    .from(llmCalls)
    .where(and(eq(llmCalls.runId, runId), eq(llmCalls.id, id)));
  return row;
}
