// POST /api/forecast: what a batch or a run of these models and levels is likely to cost and take,
// from the history of past runs (worker/analytics/forecast.ts, docs/budgets.md#forecast).
import { Hono } from 'hono';
import { forecastRequestSchema } from '../../schema/forecast-request.ts';
import type { Forecast } from '../../schema/forecast.ts';
import { forecastFrom } from '../analytics/forecast.ts';
import { methodNotAllowed } from '../errors.ts';
import { readJson } from '../validate.ts';
import { fromD1 } from './analytics.ts';

export const forecastRoutes = new Hono<{ Bindings: Env }>()
  .post('/', async (c) => {
    const request = await readJson(c, forecastRequestSchema);
    return c.json((await fromD1(forecastFrom(c.env.DB, request))) satisfies Forecast);
  })
  .all('/', methodNotAllowed(['POST']));
