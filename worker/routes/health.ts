// GET /api/health: every component, ok or not, with a reason. 503 when any is down.
import { Hono } from 'hono';
import { methodNotAllowed } from '../errors.ts';
import { checkHealth } from '../health.ts';

export const healthRoutes = new Hono<{ Bindings: Env }>()
  .get('/', async (c) => {
    const health = await checkHealth(c.env);
    return c.json(health, health.ok ? 200 : 503);
  })
  .all('/', methodNotAllowed(['GET']));
