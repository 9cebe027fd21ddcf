// The worker's HTTP surface: one Hono sub-app per resource under /api, one error funnel.
// Everything but health is behind requireAccess (auth.ts).
import { Hono } from 'hono';
import { requireAccess } from './auth.ts';
import { onError, onNotFound } from './errors.ts';
import { healthRoutes } from './routes/health.ts';
import { modelRoutes } from './routes/models.ts';
import { runRoutes } from './routes/runs.ts';

export const app = new Hono<{ Bindings: Env }>()
  .route('/api/health', healthRoutes)
  .use('/api/runs/*', requireAccess)
  .use('/api/runs', requireAccess)
  .use('/api/models', requireAccess)
  .route('/api/runs', runRoutes)
  .route('/api/models', modelRoutes)
  .onError(onError)
  .notFound(onNotFound);
