// GET /api/models: the models a run can use, as the proxy reports them (baseline plus configured).
import { Hono } from 'hono';
import { methodNotAllowed } from '../errors.ts';
import { offeredModels } from '../proxy-models.ts';

export const modelRoutes = new Hono<{ Bindings: Env }>()
  .get('/', async (c) => c.json({ models: await offeredModels(c.env) }))
  .all('/', methodNotAllowed(['GET']));
