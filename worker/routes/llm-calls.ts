// GET /api/runs/:id/llm-calls/:callId: one model call as the proxy recorded it (redacted there):
// its figures, the exact request rebuilt from the stored deltas, and the response.
import { Hono } from 'hono';
import { z } from 'zod';
import type { LlmCallDetail } from '../../schema/protocol.ts';
import { rebuildRequest } from '../../schema/request-delta.ts';
import { runIdSchema } from '../../schema/run.ts';
import { llmCallWithChain } from '../db.ts';
import { errorText } from '../error-text.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { WHOLE_EVERY } from '../request-chain.ts';
import { runExists, sessionFor } from '../run-lookup.ts';

const callIdSchema = z.string().regex(/^[\w.:-]{1,100}$/);

export const llmCallRoutes = new Hono<{ Bindings: Env }>()
  .get('/:id/llm-calls/:callId', async (c) => {
    const { id, callId } = c.req.param();
    const notFound = new ApiError(
      404,
      'llm_call_not_found',
      `run "${id.slice(0, 80)}" has no model call "${callId.slice(0, 100)}"; its llm_call events name the calls`,
    );
    if (!runIdSchema.safeParse(id).success || !callIdSchema.safeParse(callId).success) throw notFound;
    const place = (await runExists(c.env, id)) ? await sessionFor(c.env, id).callSeq(callId) : null;
    if (place === null) throw notFound;
    // A fork's call before the fork is its parent's, indexed under the parent (docs/forks.md).
    const { seq, runId } = place;
    const found = await llmCallWithChain(c.env, runId, seq, WHOLE_EVERY + 1).catch((err: unknown) => {
      throw new ApiError(
        503,
        'd1_unavailable',
        `the run index (D1) did not answer: ${errorText(err)}; try again shortly`,
      );
    });
    if (!found)
      throw new ApiError(
        404,
        'llm_call_not_indexed',
        `model call "${callId}" is in the run's log but not in the index yet; try again in a few seconds`,
      );
    const stored = new Map(found.chain.map((row) => [row.id, row.request]));
    const { row } = found;
    const request = row.request === null ? null : rebuildRequest(row.id, (key) => stored.get(key));
    const detail: LlmCallDetail = {
      call: {
        callId,
        runId,
        seq,
        level: row.level,
        model: row.model,
        stage: row.stage,
        promptTokens: row.promptTokens,
        completionTokens: row.completionTokens,
        latencyMs: row.latencyMs,
        costUsd: row.costUsd,
        errorClass: row.errorClass,
        createdAt: new Date(row.createdAt).toISOString(),
      },
      request,
      response: row.response,
    };
    return c.json(detail);
  })
  .all('/:id/llm-calls/:callId', methodNotAllowed(['GET']));
