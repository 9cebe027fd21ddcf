// /api/runs/:id/shares: a read-only link to one run (operator and up). The token rides in the link's
// fragment and is shown once; D1 keeps its hash. Revoking one makes its next request a 401.
import { Hono } from 'hono';
import type { CreatedShare, ShareList } from '../../schema/access.ts';
import { createShareBodySchema, shareUrl } from '../../schema/access.ts';
import { isoTime, listTokens, mintToken, revokeToken, tokenInfo } from '../access/token-store.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { existingSession } from '../run-lookup.ts';
import { readJson } from '../validate.ts';
import { fromTokenStore } from './tokens.ts';

export const shareRoutes = new Hono<{ Bindings: Env }>()
  .post('/:id/shares', async (c) => {
    const runId = c.req.param('id');
    await existingSession(c.env, runId);
    const body = await readJson(c, createShareBodySchema);
    const { row, token } = await fromTokenStore(
      mintToken(c.env, { role: 'share', runId, label: body.label ?? null, expiresInSeconds: body.expiresInSeconds }),
    );
    const created: CreatedShare = {
      id: row.id,
      url: shareUrl(new URL(c.req.url).origin, runId, token),
      token,
      label: row.label,
      expiresAt: isoTime(row.expiresAt),
    };
    return c.json(created, 201, { 'cache-control': 'no-store' });
  })
  .get('/:id/shares', async (c) => {
    const runId = c.req.param('id');
    await existingSession(c.env, runId);
    const rows = await fromTokenStore(listTokens(c.env, runId));
    return c.json({ shares: rows.map(tokenInfo) } satisfies ShareList);
  })
  .all('/:id/shares', methodNotAllowed(['GET', 'POST']))
  .delete('/:id/shares/:shareId', async (c) => {
    const runId = c.req.param('id');
    const id = c.req.param('shareId');
    const session = await existingSession(c.env, runId);
    const row = await fromTokenStore(revokeToken(c.env, id, runId));
    if (!row)
      throw new ApiError(
        404,
        'share_not_found',
        `run ${runId} has no share link "${id.slice(0, 80)}"; list them with GET /api/runs/${runId}/shares`,
      );
    // Its open sockets close now, not at their next request: a revoked link stops watching at once.
    await session.closeSocketsOf(row.id);
    return c.json(tokenInfo(row));
  })
  .all('/:id/shares/:shareId', methodNotAllowed(['DELETE']));
