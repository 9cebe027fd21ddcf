// The archive's llm/ files: a run's model calls read from D1 a page at a time, each request rebuilt from
// its stored delta chain (schema/request-delta.ts). A chain runs back to the last whole request, at most
// 25 calls, so the rows of the last two pages serve every rebuild; a link older than that is read alone.
import { rebuildRequest } from '../../schema/request-delta.ts';
import { llmCallsPage, storedRequest } from '../db.ts';
import type { ArchivedCall } from './build-archive.ts';

/** Model calls a page reads. */
const CALL_PAGE = 100;
/** Stored requests kept for the chains of the next page's calls. */
const KEPT = 2 * CALL_PAGE;

/** A request whole: its chain from the kept rows, a link not among them read from D1 (and kept). */
async function rebuilt(env: Env, runId: string, id: string, kept: Map<string, unknown>): Promise<unknown> {
  for (;;) {
    let missing: string | null = null;
    try {
      return rebuildRequest(id, (key) => {
        const stored = kept.get(key);
        if (stored === undefined) missing = key;
        return stored;
      });
    } catch (err) {
      const link = missing === null ? undefined : await storedRequest(env, runId, missing);
      if (missing === null || link === undefined) throw err;
      kept.set(missing, link.request);
    }
  }
}

/** The run's model calls, oldest first, a page at a time, with their requests rebuilt. */
export async function* archivedCallPages(env: Env, runId: string): AsyncIterable<ArchivedCall[]> {
  const kept = new Map<string, unknown>();
  for (let after = -1; ; ) {
    const rows = await llmCallsPage(env, runId, after, CALL_PAGE);
    if (rows.length === 0) return;
    for (const row of rows) kept.set(row.id, row.request);
    const calls: ArchivedCall[] = [];
    for (const row of rows)
      calls.push({
        seq: row.seq,
        stage: row.stage,
        model: row.model,
        level: row.level,
        promptTokens: row.promptTokens,
        completionTokens: row.completionTokens,
        latencyMs: row.latencyMs,
        costUsd: row.costUsd,
        errorClass: row.errorClass,
        request: row.request === null ? null : await rebuilt(env, runId, row.id, kept),
        response: row.response,
      });
    yield calls;
    for (const key of kept.keys()) {
      if (kept.size <= KEPT) break;
      kept.delete(key);
    }
    after = rows.at(-1)!.seq;
  }
}
