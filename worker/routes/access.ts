// GET /api/access: who the caller is (role, and for a share link its run and expiry), so a client
// shows only what that role may use. Any valid access may ask, a share link included.
import { Hono } from 'hono';
import type { AccessInfo } from '../../schema/access.ts';
import { isoTime } from '../access/token-store.ts';
import { methodNotAllowed } from '../errors.ts';

export const accessRoutes = new Hono<{ Bindings: Env }>()
  .get('/', (c) => {
    const access = c.get('access');
    const info: AccessInfo = { role: access.role, via: access.via };
    if (access.runId !== undefined) info.runId = access.runId;
    if (access.expiresAt !== undefined) info.expiresAt = isoTime(access.expiresAt);
    return c.json(info, 200, { 'cache-control': 'no-store' });
  })
  .all('/', methodNotAllowed(['GET']));
