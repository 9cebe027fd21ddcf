// The REST surface: valid input works, and every kind of bad input gets a JSON error with the right status.
import { levelSetOf } from '../../schema/level-sets.ts';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../schema/api.ts';
import { runSummarySchema } from '../../schema/run.ts';
import { call, createRun, postJson } from './http.ts';

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  const body = apiErrorSchema.parse(await response.json());
  expect(body.error.code).toBe(code);
  expect(body.error.message).not.toMatch(/\n\s+at /); // no stack traces
  return body.error;
}

describe('runs', () => {
  it('creates a queued run with defaults filled in and reads it back', async () => {
    const response = await postJson('/api/runs', { model: 'baseline', maxRetries: 1 });
    expect(response.status).toBe(201);
    const run = runSummarySchema.parse(await response.json());
    expect(run.status).toBe('queued');
    expect(run.config).toEqual({
      target: 'practice',
      startLevel: 0,
      endLevel: 20,
      model: 'baseline',
      maxRetries: 1,
      budget: 15,
      // Recorded by the worker when it makes the run (schema/level-sets.ts).
      levelSet: levelSetOf('practice', Date.now()),
      // A person's run plays in the shared world unless it asks for its own (schema/worlds.ts).
      world: 'shared',
    });
    const { hosting, ...again } = runSummarySchema.parse(await (await call(`/api/runs/${run.id}`)).json());
    expect(again).toEqual(run);
    // What hosting it has cost so far by its object's own counts (issue 34): the create, the queue's start and
    // this read, and its tables' rows.
    expect(hosting).toMatchObject({ requests: 3, socketMessages: 0 });
    expect(hosting?.rowsWritten).toBeGreaterThan(0);
    expect(hosting?.storedBytes).toBeGreaterThan(0);
  });

  it('refuses bad JSON', async () => {
    const error = await expectError(await postJson('/api/runs', '{"model": '), 400, 'invalid_json');
    expect(error.message).toMatch(/not valid JSON/);
  });

  it('refuses unknown fields and out-of-range values, naming each', async () => {
    const error = await expectError(
      await postJson('/api/runs', { modle: 'x', maxRetries: 0, startLevel: 5, endLevel: 2 }),
      400,
      'invalid_input',
    );
    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^maxRetries: must be at least 1/),
        expect.stringMatching(/modle/),
      ]),
    );
  });

  it('refuses a start level above the end level', async () => {
    const error = await expectError(await postJson('/api/runs', { startLevel: 5, endLevel: 2 }), 400, 'invalid_input');
    expect(error.issues).toEqual(['endLevel: must be at least startLevel']);
  });

  it('refuses at the door a level range the target does not have, naming the range it has', async () => {
    const error = await expectError(
      await postJson('/api/runs', { target: 'practice', endLevel: 33 }),
      400,
      'invalid_input',
    );
    expect(error.issues).toEqual(['endLevel: must be at most 32']);
    const bandit = await expectError(
      await postJson('/api/runs', { target: 'bandit', startLevel: 33, endLevel: 33 }),
      400,
      'invalid_input',
    );
    expect(bandit.message).toMatch(/at most 32/);
    // Bandit's last playable level is 32; stopped at once, as this machine cannot reach the real host.
    const run = await createRun({ target: 'bandit', startLevel: 30, endLevel: 32 });
    expect(run.config).toMatchObject({ target: 'bandit', startLevel: 30, endLevel: 32 });
    expect((await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' })).status).toBe(200);
  });

  it('refuses a model the proxy does not offer, listing the ones it does', async () => {
    const error = await expectError(await postJson('/api/runs', { model: 'gpt-nonexistent' }), 400, 'unknown_model');
    expect(error.message).toMatch(/"gpt-nonexistent" is not offered; use one of: baseline, /);
    expect(error.message).not.toMatch(/keyless-model/);
  });

  it('refuses a knowledge model the proxy does not offer, and the settings a run cannot serve', async () => {
    const error = await expectError(
      await postJson('/api/runs', { model: 'baseline', finalAttempt: true, knowledgeModel: 'gpt-nonexistent' }),
      400,
      'unknown_model',
    );
    expect(error.message).toMatch(/^knowledgeModel "gpt-nonexistent" is not offered/);
    const off = await expectError(
      await postJson('/api/runs', { knowledgeModel: 'baseline', finalAttempt: false }),
      400,
      'invalid_input',
    );
    expect(off.message).toMatch(/knowledgeModel: is used only by the final attempt/);
    const replay = await expectError(await postJson('/api/runs', { model: 'replay' }), 400, 'invalid_input');
    expect(replay.message).toMatch(
      /model: the "replay" model re-runs another run; start it with POST \/api\/runs\/:id\/verify/,
    );
    const plan = {
      of: 'run_0000000000000000000000',
      levels: [{ level: 0, commands: [{ command: 'cat readme', exitCode: 0 }], passwordSha256: 'a'.repeat(64) }],
    };
    const direct = await expectError(
      await postJson('/api/runs', { model: 'replay', endLevel: 0, replay: plan }),
      400,
      'invalid_input',
    );
    expect(direct.message).toMatch(/POST \/api\/runs\/:id\/verify/);
  });

  it('has nothing to verify on a run that solved no level, and 404s an unknown run', async () => {
    const run = await createRun({ maxRetries: 1 });
    const error = await expectError(await postJson(`/api/runs/${run.id}/verify`, {}), 409, 'nothing_to_verify');
    expect(error.message).toMatch(/no level solved by its own commands/);
    await expectError(await postJson('/api/runs/run_00000000000000000000000000/verify', {}), 404, 'run_not_found');
    await expectError(await call(`/api/runs/${run.id}/artifacts?secrets=all`), 400, 'invalid_query');
    // Not a verification run, and nothing has verified it yet.
    const verification = await call(`/api/runs/${run.id}/verification`);
    expect(verification.status).toBe(200);
    expect(await verification.json()).toEqual({ report: null, verifiedBy: [] });
  });

  it('refuses a model the proxy offers but cannot run, with its reason', async () => {
    const error = await expectError(await postJson('/api/runs', { model: 'keyless-model' }), 400, 'model_unavailable');
    expect(error.message).toMatch(/OPENAI_API_KEY is not set/);
  });

  it('refuses a body over 64 KiB with 413', async () => {
    await expectError(await postJson('/api/runs', { model: 'x'.repeat(70_000) }), 413, 'body_too_large');
  });

  it('answers 404 for an unknown or malformed run id', async () => {
    await expectError(await call('/api/runs/run_0000000000000000000000000'), 404, 'run_not_found');
    await expectError(await call('/api/runs/..%2F..%2Fetc'), 404, 'run_not_found');
  });

  it('refuses an action that does not fit the run state with 409, and stops a queued run', async () => {
    const run = await createRun();
    const refused = await expectError(
      await postJson(`/api/runs/${run.id}/actions`, { action: 'continue' }),
      409,
      'conflict',
    );
    expect(refused.message).toMatch(/queued/);
    const stopped = await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    expect(runSummarySchema.parse(await stopped.json()).status).toBe('stopped');
    await expectError(await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' }), 409, 'conflict');
  });

  it('asks for a WebSocket upgrade on the socket route', async () => {
    const run = await createRun();
    await expectError(await call(`/api/runs/${run.id}/ws`), 426, 'upgrade_required');
  });
});

describe('unknown routes and methods', () => {
  it('answers an unknown API route with JSON 404', async () => {
    const error = await expectError(await call('/api/nope'), 404, 'not_found');
    expect(error.message).toMatch(/GET \/api\/nope/);
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const response = await call('/api/health', { method: 'DELETE', headers: { 'content-type': 'application/json' } });
    expect(response.headers.get('allow')).toBe('GET');
    await expectError(response, 405, 'method_not_allowed');
    await expectError(
      await call('/api/runs', { method: 'PUT', headers: { 'content-type': 'application/json' } }),
      405,
      'method_not_allowed',
    );
  });
});
