// GET /api/queue: the runs holding a slot and the line behind them, in order, with each run's place.
import { Hono } from 'hono';
import { methodNotAllowed } from '../errors.ts';
import { queueFor } from '../run-queue.ts';

export const queueRoutes = new Hono<{ Bindings: Env }>()
  .get('/', async (c) => c.json(await queueFor(c.env).status()))
  .all('/', methodNotAllowed(['GET']));
