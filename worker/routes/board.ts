// GET /api/board: the head-to-head board, models × levels, from the D1 index (worker/analytics/board.ts).
import { Hono } from 'hono';
import { boardQuerySchema } from '../../schema/board.ts';
import { board } from '../analytics/board.ts';
import { methodNotAllowed } from '../errors.ts';
import { refoldFirst } from '../outcome-refold.ts';
import { readQuery } from '../validate.ts';
import { fromD1 } from './analytics.ts';

export const boardRoutes = new Hono<{ Bindings: Env }>()
  .use('/', refoldFirst)
  .get('/', async (c) => {
    const query = readQuery(c, boardQuerySchema);
    return c.json(await fromD1(board(c.env.DB, query, Date.now())));
  })
  .all('/', methodNotAllowed(['GET']));
