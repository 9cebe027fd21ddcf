// The OpenAPI 3.1 document of the REST API, generated from the same zod schemas the routes validate
// with, so it cannot drift from them. Served at GET /api/openapi.json; a test validates it with a
// real OpenAPI validator and checks that every registered route is in it.
import {
  analyticsFailuresSchema,
  analyticsLevelsSchema,
  analyticsLimitsSchema,
  analyticsModelsSchema,
  analyticsQuerySchema,
  analyticsSeriesSchema,
  analyticsSlowSchema,
  analyticsSummarySchema,
  failuresQuerySchema,
  seriesQuerySchema,
  slowQuerySchema,
} from '../schema/analytics.ts';
import { apiErrorSchema, healthSchema } from '../schema/api.ts';
import { modelListSchema } from '../schema/protocol.ts';
import {
  batchListSchema,
  batchSchema,
  boardQuerySchema,
  boardSchema,
  createBatchSchema,
  raiseBatchSchema,
} from '../schema/board.ts';
import { queueStatusSchema } from '../schema/queue.ts';
import { compareQuerySchema, runComparisonSchema } from '../schema/run-compare.ts';
import { forecastRequestSchema } from '../schema/forecast-request.ts';
import { forecastSchema } from '../schema/forecast.ts';
import type { Json } from './openapi-parts.ts';
import { batchId, common, component, components, error, json, query, tooManyRuns } from './openapi-parts.ts';
import { runPaths } from './openapi-run-paths.ts';
import { forkPaths } from './openapi-fork-paths.ts';
import { accessPaths } from './openapi-access-paths.ts';

let built: Json | null = null;

/** The whole document, built once (components fill as the paths are described). */
export function openApiDocument(): Json {
  built ??= buildDocument();
  return built;
}

function buildDocument(): Json {
  component('ApiError', apiErrorSchema);
  const paths: Json = {
    '/api/health': {
      get: {
        summary: 'Health of every component (reasons only with access)',
        security: [],
        responses: {
          '200': json(component('Health', healthSchema), 'All ok'),
          '503': json({ $ref: '#/components/schemas/Health' }, 'A component is down'),
        },
      },
    },
    '/api/openapi.json': {
      get: {
        summary: 'This document',
        responses: { '200': json({ type: 'object' }, 'The OpenAPI document'), ...common },
      },
    },
    ...runPaths(),
    ...forkPaths(),
    ...accessPaths(),
    '/api/analytics/summary': {
      get: {
        summary: 'Runs, levels, tokens, cost and model-call figures',
        parameters: query(analyticsQuerySchema),
        responses: {
          '200': json(component('AnalyticsSummary', analyticsSummarySchema), 'The summary'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/analytics/levels': {
      get: {
        summary: 'The models × levels matrix',
        parameters: query(analyticsQuerySchema),
        responses: {
          '200': json(component('AnalyticsLevels', analyticsLevelsSchema), 'One cell per model and level'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/analytics/models': {
      get: {
        summary: 'Per model: runs, solves alone and helped, tokens, cost, errors and latency percentiles',
        parameters: query(analyticsQuerySchema),
        responses: {
          '200': json(component('AnalyticsModels', analyticsModelsSchema), 'One row per model'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/analytics/failures': {
      get: {
        summary: 'Failed model calls and nodes with their fixes, and the common ones by class',
        parameters: query(failuresQuerySchema),
        responses: {
          '200': json(component('AnalyticsFailures', analyticsFailuresSchema), 'A page of failures'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/analytics/slow': {
      get: {
        summary: "Node executions over a threshold, with the model's share and the overhead",
        parameters: query(slowQuerySchema),
        responses: {
          '200': json(component('AnalyticsSlow', analyticsSlowSchema), 'Slowest first'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/analytics/series': {
      get: {
        summary: 'Runs, calls, errors, tokens, cost and latency per hour or day',
        parameters: query(seriesQuerySchema),
        responses: {
          '200': json(component('AnalyticsSeries', analyticsSeriesSchema), 'Points in time order'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/analytics/limits': {
      get: {
        summary: 'Runs and levels that ended short, counted by why (a cap, the retries, a stop, a failure)',
        parameters: query(analyticsQuerySchema),
        responses: {
          '200': json(component('AnalyticsLimits', analyticsLimitsSchema), 'Most first'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/batches': {
      get: {
        summary: 'Batches, newest first',
        responses: {
          '200': json(component('BatchList', batchListSchema), 'The batches'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
      post: {
        summary: 'Start a batch: each model on the same levels, `repeats` times',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: component('CreateBatch', createBatchSchema, 'input') } },
        },
        responses: {
          '201': json(component('Batch', batchSchema), 'The batch and its runs, queued'),
          '400': error('Bad batch, level range or model'),
          '413': error('Body over 64 KiB'),
          ...tooManyRuns,
          '503': error('The proxy could not list its models, or D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/batches/{id}': {
      get: {
        summary: 'A batch: its runs, their progress and places in the queue',
        parameters: [batchId],
        responses: {
          '200': json({ $ref: '#/components/schemas/Batch' }, 'The batch'),
          '404': error('No such batch'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/batches/{id}/raise': {
      post: {
        summary: "Raise a batch's cost cap; its waiting runs may start again",
        parameters: [batchId],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: component('RaiseBatch', raiseBatchSchema, 'input') } },
        },
        responses: {
          '200': json({ $ref: '#/components/schemas/Batch' }, 'The batch with its new cap'),
          '400': error('Bad cap: below the cap in force or what its runs spent, or the batch has no cap'),
          '404': error('No such batch'),
          ...common,
        },
      },
    },
    '/api/board': {
      get: {
        summary: 'Models × levels: solved alone, after help, not solved; per model totals and spread',
        parameters: query(boardQuerySchema),
        responses: {
          '200': json(component('Board', boardSchema), 'The board'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/compare': {
      get: {
        summary: 'Two runs side by side: each level, the totals and the first point where they differ',
        parameters: query(compareQuerySchema),
        responses: {
          '200': json(component('RunComparison', runComparisonSchema), 'The comparison (docs/compare.md)'),
          '400': error('Bad query: a and b must each be a run id'),
          '404': error('No run with one of the ids; the message names it'),
          ...common,
        },
      },
    },
    '/api/forecast': {
      post: {
        summary: 'Cost and time forecast of a batch or run, from past runs (median and p90 per level)',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: component('ForecastRequest', forecastRequestSchema, 'input') } },
        },
        responses: {
          '200': json(component('Forecast', forecastSchema), 'Per model and level, summed, times repeats'),
          '400': error('Bad models, levels or repeats'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/queue': {
      get: {
        summary: 'Runs holding a slot, and the line behind them in order',
        responses: { '200': json(component('QueueStatus', queueStatusSchema), 'The queue'), ...common },
      },
    },
    '/api/models': {
      get: {
        summary: 'Models a run can use',
        responses: {
          '200': json(component('ModelList', modelListSchema), 'The models'),
          '503': error('The proxy did not answer'),
          ...common,
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'bandit-runner API',
      version: '1',
      description: 'REST API of bandit-runner. Events and live updates: docs/protocol.md.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API_TOKEN, a role token or a share link token' },
      },
    },
  };
}
