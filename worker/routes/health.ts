// GET /api/health: every component, ok or not, with a reason. 503 when any is down. Public, but a
// caller without access sees only ok per component: reasons name URLs, settings and errors.
import { Hono } from 'hono';
import type { Health } from '../../schema/api.ts';
import { roleAtLeast } from '../../schema/access.ts';
import { checkAccess } from '../auth.ts';
import { methodNotAllowed } from '../errors.ts';
import { checkHealth } from '../health.ts';

export const healthRoutes = new Hono<{ Bindings: Env }>()
  .get('/', async (c) => {
    const health = await checkHealth(c.env);
    // Reasons are for a viewer or better: a share link sees ok per component, like anyone.
    const access = await checkAccess(c.req.raw, c.env);
    const shown = access.ok && roleAtLeast(access.access.role, 'viewer') ? health : redacted(health);
    return c.json(shown, health.ok ? 200 : 503);
  })
  .all('/', methodNotAllowed(['GET']));

function redacted(health: Health): Health {
  const components = Object.fromEntries(
    Object.entries(health.components).map(([name, c]) => [
      name,
      { ok: c.ok, reason: c.ok ? 'ok' : 'not ok; call with access for the reason' },
    ]),
  ) as Health['components'];
  return { ok: health.ok, components };
}
