// The /api/runs routes of the OpenAPI document (openapi.ts): a run, its events, actions, diagnosis,
// timeline, model calls, archive, terminal recording, offline report, verification and WebSocket.
import { z } from 'zod';
import { CLIENT_HEADER, clientKindSchema } from '../schema/answered-by.ts';
import { artifactsQuerySchema, verificationResponseSchema } from '../schema/artifacts.ts';
import { troubleCardSchema } from '../schema/failures.ts';
import { llmCallDetailSchema, runEventSchema } from '../schema/protocol.ts';
import {
  createRunBodySchema,
  eventsQuerySchema,
  runActionSchema,
  runListQuerySchema,
  runListSchema,
  runSummarySchema,
  socketQuerySchema,
} from '../schema/run.ts';
import { timelineSchema } from '../schema/timeline.ts';
import type { Json } from './openapi-parts.ts';
import { callId, common, component, error, json, query, runId, tooManyRuns } from './openapi-parts.ts';

/** The paths under /api/runs. */
export function runPaths(): Json {
  const run = component('RunSummary', runSummarySchema);
  const eventPage = component(
    'EventPage',
    z.object({ events: z.array(runEventSchema), lastSeq: z.number().int(), nextSince: z.number().int().nullable() }),
  );
  return {
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
          'The run as one zip: manifest, summary, events, run.log, transcript, report.html, model calls, tool metrics, replay scripts, terminal.cast, lessons (docs/artifacts.md)',
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
    '/api/runs/{id}/report.html': {
      get: {
        summary:
          'The run as one self-contained HTML page that opens offline: summary, per-level outcomes, transcript, timeline, terminal replay (docs/artifacts.md)',
        parameters: [runId, ...query(artifactsQuerySchema)],
        responses: {
          '200': {
            description: 'report.html, the same file as in the archive; a strict CSP lets it load nothing',
            content: { 'text/html': { schema: { type: 'string' } } },
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
  };
}
