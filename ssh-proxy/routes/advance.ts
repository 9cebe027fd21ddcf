// POST /v1/advance: the Durable Object sends the last checkpoint (or none) and gets NDJSON back.
// Everything is checked before the stream opens, so a bad request is a 4xx, never a broken stream.
import { Hono } from 'hono';
import { errorBody } from '../../schema/api.ts';
import { describeIssues, issueList } from '../../schema/issues.ts';
import { proxyRequestSchema } from '../../schema/protocol.ts';
import type { PendingAction } from '../../schema/protocol.ts';
import type { RunFrom } from '../engine/compiled-graph.ts';
import type { BanditState } from '../agent/bandit-state.ts';
import { initialBanditState } from '../agent/bandit-state.ts';
import type { CallDeps } from '../call-stream.ts';
import { callStream } from '../call-stream.ts';
import type { GameTarget } from '../targets/target.ts';
import type { Target } from '../../schema/run.ts';

/** The route of POST /v1/advance: checks the request, claims the run, and answers with the call's stream. */
export function callRoute(deps: CallDeps, targets: Record<Target, GameTarget>) {
  return new Hono().post('/', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json(errorBody('invalid_json', 'the body is not JSON; send {runId, config, checkpoint, resume?}'), 400);
    }
    const parsed = proxyRequestSchema.safeParse(body);
    if (!parsed.success)
      return c.json(errorBody('invalid_request', describeIssues(parsed.error), issueList(parsed.error)), 400);
    const request = parsed.data;
    const target = targets[request.config.target];
    const model = deps.models.get(request.config.model, request.config);
    const knowledgeId = request.config.knowledgeModel ?? request.config.model;
    const knowledge = knowledgeId === request.config.model ? model : deps.models.get(knowledgeId, request.config);
    if (!model || !knowledge) {
      const offered = deps.models
        .list()
        .map((m) => m.id)
        .join(', ');
      const [field, id] = model ? ['config.knowledgeModel', knowledgeId] : ['config.model', request.config.model];
      return c.json(errorBody('unknown_model', `${field}: "${id}" is not offered here; use one of: ${offered}`), 400);
    }

    let from: RunFrom<BanditState, PendingAction>;
    if (request.checkpoint) {
      const loaded = deps.graph.loadCheckpoint(request.checkpoint);
      if (!loaded.ok) return c.json(errorBody('invalid_checkpoint', loaded.message), 400);
      if (request.resume && loaded.checkpoint.interrupt === undefined) {
        return c.json(
          errorBody('not_interrupted', 'resume was sent, but the checkpoint is not waiting for a person'),
          409,
        );
      }
      from = { checkpoint: loaded.checkpoint };
    } else {
      if (request.resume)
        return c.json(errorBody('not_interrupted', 'resume needs the checkpoint of the paused run'), 409);
      from = { state: initialBanditState(request.config, Date.now()) };
    }
    // One call per run at a time: a second would share the run's SSH session and fork its state.
    if (!deps.calls.claim(request.runId)) {
      return c.json(
        errorBody('run_busy', `run ${request.runId} already has a call in progress; try again when it ends`),
        409,
      );
    }
    const stream = callStream(request, target, { model, knowledge }, from, deps, c.req.raw.signal);
    return new Response(stream, {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
    });
  });
}
