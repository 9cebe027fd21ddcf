// The OpenAPI 3.1 document of the REST API, generated from the same zod schemas the routes validate
// with, so it cannot drift from them. Served at GET /api/openapi.json; a test validates it with a
// real OpenAPI validator and checks that every registered route is in it.
import { z } from 'zod';
import {
  analyticsFailuresSchema,
  analyticsLevelsSchema,
  analyticsModelsSchema,
  analyticsQuerySchema,
  analyticsSeriesSchema,
  analyticsSlowSchema,
  analyticsSummarySchema,
  failuresQuerySchema,
  seriesQuerySchema,
  slowQuerySchema,
} from '../schema/analytics.ts';
import { CLIENT_HEADER, clientKindSchema } from '../schema/answered-by.ts';
import { apiErrorSchema, healthSchema } from '../schema/api.ts';
import { troubleCardSchema } from '../schema/failures.ts';
import { llmCallDetailSchema, modelListSchema, runEventSchema } from '../schema/protocol.ts';
import {
  createRunBodySchema,
  eventsQuerySchema,
  socketQuerySchema,
  runActionSchema,
  runListQuerySchema,
  runListSchema,
  runSummarySchema,
} from '../schema/run.ts';
import { timelineSchema } from '../schema/timeline.ts';
import { artifactsQuerySchema, verificationResponseSchema } from '../schema/artifacts.ts';
import { batchListSchema, batchSchema, boardQuerySchema, boardSchema, createBatchSchema } from '../schema/board.ts';
import { queueStatusSchema } from '../schema/queue.ts';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const components: Record<string, Json> = {};

/** A named schema in components; nested $defs are lifted beside it so every $ref resolves. */
function component(name: string, schema: z.ZodType, io: Io = 'output'): Json {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  delete json.$defs;
  delete json.$schema;
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (value === null || typeof value !== 'object') return value;
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string')
        out[key] =
          inner === '#' ? `#/components/schemas/${name}` : inner.replace('#/$defs/', `#/components/schemas/${name}_`);
      else out[key] = rename(inner);
    }
    return out;
  };
  for (const [def, body] of Object.entries(defs)) components[`${name}_${def}`] = rename(body) as Json;
  components[name] = rename(json) as Json;
  return { $ref: `#/components/schemas/${name}` };
}

const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json({ $ref: '#/components/schemas/ApiError' }, description);

/** Query parameters from an object schema's properties. */
function query(schema: z.ZodObject): Json[] {
  const body = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(body.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: body.required?.includes(name) ?? false,
    schema: property,
  }));
}

const runId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^run_[0-9a-z]{20,40}$' } };
const batchId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^batch_[0-9a-z]{20,40}$' },
};
const callId = { name: 'callId', in: 'path', required: true, schema: { type: 'string' } };
const common = {
  '401': error('API_TOKEN is set and the request did not carry it'),
  '403': error("Not this machine's own client (no API_TOKEN set)"),
};

/** Past a client's allowance of run creations (RUN_CREATE_PER_MINUTE, RUN_CREATE_BURST); Retry-After says when. */
const tooManyRuns = {
  '429': {
    ...error('Too many runs created by this client; try again after Retry-After seconds'),
    headers: {
      'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the allowance covers the request' },
    },
  },
};

let built: Json | null = null;

/** The whole document, built once (components fill as the paths are described). */
export function openApiDocument(): Json {
  built ??= buildDocument();
  return built;
}

function buildDocument(): Json {
  component('ApiError', apiErrorSchema);
  const run = component('RunSummary', runSummarySchema);
  const eventPage = component(
    'EventPage',
    z.object({ events: z.array(runEventSchema), lastSeq: z.number().int(), nextSince: z.number().int().nullable() }),
  );
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
    '/api/runs': {
      get: {
        summary: 'Runs, newest first',
        parameters: query(runListQuerySchema),
        responses: {
          '200': json(component('RunList', runListSchema), 'A page of runs'),
          '400': error('Bad query'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
      post: {
        summary: 'Start a run',
        requestBody: {
          required: false,
          content: { 'application/json': { schema: component('RunConfig', createRunBodySchema, 'input') } },
        },
        responses: {
          '201': json(run, 'The run, queued'),
          '400': error('Bad config, level range or model, or a cost cap (caps.maxCostUsd) on a model with no price'),
          '413': error('Body over 64 KiB'),
          ...tooManyRuns,
          '503': error('The proxy could not list its models'),
          ...common,
        },
      },
    },
    '/api/runs/{id}': {
      get: {
        summary: 'One run, with its caps and what it has spent against them (`spend`)',
        parameters: [runId],
        responses: { '200': json(run, 'The run, with `spend`'), '404': error('No such run'), ...common },
      },
    },
    '/api/runs/{id}/events': {
      get: {
        summary: 'Stored events after `since`',
        parameters: [runId, ...query(eventsQuerySchema)],
        responses: {
          '200': json(eventPage, 'A page of events'),
          '400': error('Bad query'),
          '404': error('No such run'),
          ...common,
        },
      },
    },
    '/api/runs/{id}/actions': {
      post: {
        summary: 'Answer, pause, resume or stop a run, or raise its caps at a budget pause',
        parameters: [
          runId,
          {
            name: CLIENT_HEADER,
            in: 'header',
            required: false,
            description: 'Who answers, for the log\'s `by`: "web" (the web UI) or "cli" (the CLI); else an API client',
            schema: z.toJSONSchema(clientKindSchema),
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: component('RunAction', runActionSchema, 'input') } },
        },
        responses: {
          '200': json(run, 'The run after the action'),
          '400': error('Bad action, or a raise not above what is spent against a cap'),
          '404': error('No such run'),
          '409': error(
            "The action does not fit the run's state (raise away from a budget pause; continue, hint or password at one)",
          ),
          ...common,
        },
      },
    },
    '/api/runs/{id}/diagnosis': {
      get: {
        summary: 'Why the run paused or ended badly',
        parameters: [runId],
        responses: {
          '200': json(component('Diagnosis', z.object({ card: troubleCardSchema.nullable() })), 'The card, or null'),
          '404': error('No such run'),
          ...common,
        },
      },
    },
    '/api/runs/{id}/timeline': {
      get: {
        summary: 'The run as spans',
        parameters: [runId],
        responses: {
          '200': json(
            component('Timeline', timelineSchema),
            'Level → attempt or wait for a person → node → model call or command',
          ),
          '404': error('No such run'),
          ...common,
        },
      },
    },
    '/api/runs/{id}/llm-calls/{callId}': {
      get: {
        summary: 'One model call: figures, exact request and response',
        parameters: [runId, callId],
        responses: {
          '200': json(component('LlmCallDetail', llmCallDetailSchema), 'The call'),
          '404': error('No such run or call, or not indexed yet'),
          '503': error('D1 did not answer'),
          ...common,
        },
      },
    },
    '/api/runs/{id}/artifacts': {
      get: {
        summary:
          'The run as one zip: manifest, summary, events, run.log, transcript, model calls, tool metrics, replay scripts, terminal.cast, lessons (docs/artifacts.md)',
        parameters: [runId, ...query(artifactsQuerySchema)],
        responses: {
          '200': {
            description: 'The archive',
            content: { 'application/zip': { schema: { type: 'string', contentEncoding: 'binary' } } },
          },
          '400': error('Bad query'),
          '404': error('No such run'),
          ...common,
        },
      },
    },
    '/api/runs/{id}/terminal.cast': {
      get: {
        summary: "The run's terminal as an asciicast v2 recording",
        parameters: [runId, ...query(artifactsQuerySchema)],
        responses: {
          '200': {
            description: 'asciicast v2',
            content: { 'application/x-asciicast': { schema: { type: 'string' } } },
          },
          '400': error('Bad query'),
          '404': error('No such run'),
          ...common,
        },
      },
    },
    '/api/runs/{id}/verify': {
      post: {
        summary:
          'Start a verification run (model "replay") that re-plays the commands that solved each level, with no model',
        parameters: [runId],
        responses: {
          '201': json(run, 'The verification run, queued'),
          '404': error('No such run'),
          '409': error('Nothing to verify, or the run is itself a verification'),
          ...tooManyRuns,
          ...common,
        },
      },
    },
    '/api/runs/{id}/verification': {
      get: {
        summary: "A verification run's verdict per level, and the reports of the runs that verified this one",
        parameters: [runId],
        responses: {
          '200': json(component('Verification', verificationResponseSchema), 'The reports'),
          '404': error('No such run'),
          ...common,
        },
      },
    },
    '/api/runs/{id}/ws': {
      get: {
        summary: "The run's WebSocket (see docs/protocol.md)",
        parameters: [runId, ...query(socketQuerySchema)],
        responses: {
          '101': { description: 'Switching to the WebSocket protocol' },
          '400': error('Bad query'),
          '404': error('No such run'),
          '426': error('Not a WebSocket upgrade'),
          '429': error('The run already has MAX_SOCKETS_PER_RUN open sockets'),
          ...common,
        },
      },
    },
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
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API_TOKEN' } },
    },
  };
}
