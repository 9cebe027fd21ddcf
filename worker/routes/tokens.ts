// /api/tokens (admin only, by the rule in schema/access.ts): make a token with a role, shown once;
// list them without their text; revoke one.
import { Hono } from 'hono';
import type { CreatedToken, TokenList } from '../../schema/access.ts';
import { createTokenBodySchema } from '../../schema/access.ts';
import { isoTime, listTokens, mintToken, revokeToken, tokenInfo } from '../access/token-store.ts';
import { errorText } from '../error-text.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { readJson } from '../validate.ts';

/** D1 holds the tokens: when it fails, say so (503) rather than answer empty. */
export function fromTokenStore<T>(work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    throw new ApiError(503, 'd1_unavailable', `the token store (D1) did not answer: ${errorText(err)}; try again`);
  });
}

export const tokenRoutes = new Hono<{ Bindings: Env }>()
  .post('/', async (c) => {
    const body = await readJson(c, createTokenBodySchema);
    const { row, token } = await fromTokenStore(
      mintToken(c.env, {
        role: body.role,
        runId: null,
        label: body.label ?? null,
        expiresInSeconds: body.expiresInSeconds,
      }),
    );
    const created: CreatedToken = {
      id: row.id,
      token,
      role: body.role,
      label: row.label,
      expiresAt: isoTime(row.expiresAt),
    };
    return c.json(created, 201, { 'cache-control': 'no-store' });
  })
  .get('/', async (c) => {
    const rows = await fromTokenStore(listTokens(c.env, null));
    return c.json({ tokens: rows.map(tokenInfo) } satisfies TokenList);
  })
  .all('/', methodNotAllowed(['GET', 'POST']))
  .delete('/:tokenId', async (c) => {
    const id = c.req.param('tokenId');
    const row = await fromTokenStore(revokeToken(c.env, id, null));
    if (!row)
      throw new ApiError(
        404,
        'token_not_found',
        `no token with id "${id.slice(0, 80)}"; list them with GET /api/tokens`,
      );
    return c.json(tokenInfo(row));
  })
  .all('/:tokenId', methodNotAllowed(['DELETE']));
