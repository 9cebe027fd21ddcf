// POST /v1/break: the worker breaks into a run's call in progress, to yield at once (a person's
// message waits to be read) or to pause for a takeover. The graph reads the break at its next node boundary.
import { Hono } from 'hono';
import { errorBody } from '../../schema/api.ts';
import { describeIssues, issueList } from '../../schema/issues.ts';
import { breakRequestSchema } from '../../schema/protocol.ts';
import type { CallsInProgress } from '../calls-in-progress.ts';

/** The route of POST /v1/break: 202 when the run's call will break, 404 `no_call` when it has none. */
export function breakRoute(calls: CallsInProgress) {
  return new Hono().post('/', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json(errorBody('invalid_json', 'the body is not JSON; send {"runId": "...", "kind": "yield"}'), 400);
    }
    const parsed = breakRequestSchema.safeParse(body);
    if (!parsed.success)
      return c.json(errorBody('invalid_request', describeIssues(parsed.error), issueList(parsed.error)), 400);
    const { runId, kind } = parsed.data;
    if (!calls.askBreak(runId, kind)) {
      return c.json(
        errorBody(
          'no_call',
          `run ${runId} has no call in progress; send the break with its next /v1/advance (breakIn)`,
        ),
        404,
      );
    }
    return c.json({ ok: true, runId, kind }, 202);
  });
}
