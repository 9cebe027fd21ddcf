// The fork routes of the OpenAPI document (openapi.ts): start a run from one of a run's steps, and list a
// run's forks (docs/forks.md).
import { forkBodySchema, forkListSchema } from '../schema/fork.ts';
import { runSummarySchema } from '../schema/run.ts';
import type { Json } from './openapi-parts.ts';
import { common, component, error, json, runId, tooManyRuns } from './openapi-parts.ts';

/** POST /api/runs/{id}/fork and GET /api/runs/{id}/forks. */
export function forkPaths(): Json {
  const run = component('RunSummary', runSummarySchema);
  return {
    '/api/runs/{id}/fork': {
      post: {
        summary:
          "Start a new run from one of this run's steps (a kept checkpoint, a pause included), with another model, " +
          "hint or caps; its log shares this run's events up to `seq`",
        parameters: [runId],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: component('ForkBody', forkBodySchema, 'input') } },
        },
        responses: {
          '201': json(run, 'The fork, naming `parentId` and `forkSeq`: queued, or paused where its parent paused'),
          '400': error('Bad body, an unknown model, a cost cap on an unpriced model, or a verification run'),
          '404': error('No such run'),
          '409': error('No checkpoint is kept at `seq`; the message names the nearest kept seqs before and after'),
          '413': error('Body over 64 KiB'),
          ...tooManyRuns,
          ...common,
        },
      },
    },
    '/api/runs/{id}/forks': {
      get: {
        summary: 'The forks made of this run, oldest first',
        parameters: [runId],
        responses: {
          '200': json(component('ForkList', forkListSchema), 'The forks'),
          '404': error('No such run'),
          ...common,
        },
      },
    },
  };
}
