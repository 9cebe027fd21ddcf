// GET /api/board: the head-to-head board, models × levels, from the D1 index (worker/analytics/board.ts).
import { Hono } from 'hono';
import { boardQuerySchema } from '../../schema/board.ts';
import { describeIssues, issueList } from '../../schema/issues.ts';
import { board } from '../analytics/board.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { fromD1 } from './analytics.ts';

export const boardRoutes = new Hono<{ Bindings: Env }>()
  .get('/', async (c) => {
    const query = boardQuerySchema.safeParse(c.req.query());
    if (!query.success)
      throw new ApiError(
        400,
        'invalid_query',
        `the query is invalid: ${describeIssues(query.error)}`,
        issueList(query.error),
      );
    return c.json(await fromD1(board(c.env.DB, query.data, Date.now())));
  })
  .all('/', methodNotAllowed(['GET']));
