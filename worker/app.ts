// The worker's HTTP surface: one Hono sub-app per resource under /api, one error funnel.
// Access is checked on the mount point, /api/*, so a route added later is protected without anyone
// remembering to; auth.ts keeps the short list of public routes and gives each request its role.
import { Hono } from 'hono';
import { requireAccess } from './auth.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { batchRoutes } from './routes/batches.ts';
import { boardRoutes } from './routes/board.ts';
import { compareRoutes } from './routes/compare.ts';
import { onError, onNotFound } from './errors.ts';
import { forecastRoutes } from './routes/forecast.ts';
import { forkRoutes } from './routes/forks.ts';
import { healthRoutes } from './routes/health.ts';
import { llmCallRoutes } from './routes/llm-calls.ts';
import { modelRoutes } from './routes/models.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { queueRoutes } from './routes/queue.ts';
import { runRoutes } from './routes/runs.ts';
import { shareRoutes } from './routes/shares.ts';
import { accessRoutes } from './routes/access.ts';
import { tokenRoutes } from './routes/tokens.ts';

export const app = new Hono<{ Bindings: Env }>()
  // No answer of the API names its URL in a later request's Referer (the web app's pages say so in _headers).
  .use('/api/*', async (c, next) => {
    await next();
    c.header('Referrer-Policy', 'no-referrer');
  })
  .use('/api/*', requireAccess)
  .use('/api', requireAccess)
  .route('/api/health', healthRoutes)
  .route('/api/runs', runRoutes)
  .route('/api/runs', llmCallRoutes)
  .route('/api/runs', artifactRoutes)
  .route('/api/runs', forkRoutes)
  .route('/api/runs', shareRoutes)
  .route('/api/models', modelRoutes)
  .route('/api/analytics', analyticsRoutes)
  .route('/api/batches', batchRoutes)
  .route('/api/board', boardRoutes)
  .route('/api/compare', compareRoutes)
  .route('/api/forecast', forecastRoutes)
  .route('/api/queue', queueRoutes)
  .route('/api/openapi.json', openApiRoutes)
  .route('/api/tokens', tokenRoutes)
  .route('/api/access', accessRoutes)
  .onError(onError)
  .notFound(onNotFound);
