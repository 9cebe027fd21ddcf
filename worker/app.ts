// The worker's HTTP surface: one Hono sub-app per resource under /api, one error funnel.
import { Hono } from 'hono';
import { onError, onNotFound } from './errors.ts';
import { healthRoutes } from './routes/health.ts';
import { runRoutes } from './routes/runs.ts';

export const app = new Hono<{ Bindings: Env }>()
  .route('/api/health', healthRoutes)
  .route('/api/runs', runRoutes)
  .onError(onError)
  .notFound(onNotFound);
