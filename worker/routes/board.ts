// GET /api/board: the head-to-head board, models × levels, from the D1 index (worker/analytics/board.ts).
import { Hono } from 'hono';
import { boardQuerySchema } from '../../schema/board.ts';
import type { Board, BoardQuery } from '../../schema/board.ts';
import { actualSpend } from '../../schema/forecast.ts';
import { board } from '../analytics/board.ts';
import { readBatchForecast } from '../batch-forecasts.ts';
import { listBatchRuns } from '../db.ts';
import { methodNotAllowed } from '../errors.ts';
import { refoldFirst } from '../outcome-refold.ts';
import { readQuery } from '../validate.ts';
import { fromD1 } from './analytics.ts';

export const boardRoutes = new Hono<{ Bindings: Env }>()
  .use('/', refoldFirst)
  .get('/', async (c) => {
    const query = readQuery(c, boardQuerySchema);
    const now = Date.now();
    const [figures, versus] = await Promise.all([
      fromD1(board(c.env.DB, query, now)),
      // One batch's board also sets the forecast it was made with against what its runs spent.
      query.batch ? fromD1(forecastAgainstActual(c.env, { ...query, batch: query.batch }, now)) : {},
    ]);
    return c.json({ ...figures, ...versus } satisfies Board);
  })
  .all('/', methodNotAllowed(['GET']));

/**
 * The batch's stored forecast and what its runs the board covers (its target and time filters too) have
 * spent, per model; nothing when the filters leave none of its runs.
 */
async function forecastAgainstActual(env: Env, query: BoardQuery & { batch: string }, now: number) {
  const [forecast, runs] = await Promise.all([readBatchForecast(env.DB, query.batch), listBatchRuns(env, query.batch)]);
  const inView = runs.filter(
    (r) =>
      (!query.target || r.config.target === query.target) &&
      (!query.from || Date.parse(r.createdAt) >= Date.parse(query.from)) &&
      (!query.to || Date.parse(r.createdAt) < Date.parse(query.to)),
  );
  return inView.length
    ? ({ forecast, actual: actualSpend(inView, now) } satisfies Pick<Board, 'forecast' | 'actual'>)
    : {};
}
