// /api/analytics: what the runs cost, solved and failed, from the D1 index and its roll-ups.
import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  analyticsQuerySchema,
  failuresQuerySchema,
  seriesQuerySchema,
  slowQuerySchema,
} from '../../schema/analytics.ts';
import type { AnalyticsQuery } from '../../schema/analytics.ts';
import { refoldFirst } from '../outcome-refold.ts';
import { analyticsFailures } from '../analytics/failures.ts';
import { analyticsLevels } from '../analytics/levels.ts';
import { analyticsLimits } from '../analytics/limits.ts';
import { analyticsModels } from '../analytics/models.ts';
import { analyticsSeries } from '../analytics/series.ts';
import { analyticsSlow } from '../analytics/slow.ts';
import { analyticsSummary } from '../analytics/summary.ts';
import { errorText } from '../error-text.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { readQuery } from '../validate.ts';

const filters = (c: Context): AnalyticsQuery => readQuery(c, analyticsQuerySchema);

/** Runs a query against D1, turning its failure into a 503 that says so. */
export function fromD1<T>(work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    throw new ApiError(
      503,
      'd1_unavailable',
      `the run index (D1) did not answer: ${errorText(err)}; try again shortly`,
    );
  });
}

export const analyticsRoutes = new Hono<{ Bindings: Env }>()
  // The readers of outcomes wake runs whose levels predate them first.
  .use('/summary', refoldFirst)
  .use('/levels', refoldFirst)
  .use('/models', refoldFirst)
  .get('/summary', async (c) => c.json(await fromD1(analyticsSummary(c.env.DB, filters(c)))))
  .all('/summary', methodNotAllowed(['GET']))
  .get('/levels', async (c) => c.json(await fromD1(analyticsLevels(c.env.DB, filters(c)))))
  .all('/levels', methodNotAllowed(['GET']))
  .get('/models', async (c) => c.json(await fromD1(analyticsModels(c.env.DB, filters(c)))))
  .all('/models', methodNotAllowed(['GET']))
  .get('/failures', async (c) => c.json(await fromD1(analyticsFailures(c.env.DB, readQuery(c, failuresQuerySchema)))))
  .all('/failures', methodNotAllowed(['GET']))
  .get('/slow', async (c) => c.json(await fromD1(analyticsSlow(c.env.DB, readQuery(c, slowQuerySchema)))))
  .all('/slow', methodNotAllowed(['GET']))
  .get('/limits', async (c) => c.json(await fromD1(analyticsLimits(c.env.DB, filters(c)))))
  .all('/limits', methodNotAllowed(['GET']))
  .get('/series', async (c) => c.json(await fromD1(analyticsSeries(c.env.DB, readQuery(c, seriesQuerySchema)))))
  .all('/series', methodNotAllowed(['GET']));
