// POST /v1/advance refuses what it cannot run before any stream opens: a wrong secret, bad JSON,
// an invalid body, a level the target lacks, a foreign or broken checkpoint, a resume out of place.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceBody, postAdvance } from '../support/advance-client.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let services: LoopbackServices;
beforeAll(async () => {
  services = await startLoopbackServices();
});
afterAll(() => services.close());

const RUN = 'run_route000000000000000000';
const checkpoint = { version: 1, step: 3, next: 'plan', state: {}, createdAt: '2026-01-01T00:00:00.000Z' };

async function refused(body: unknown, init: { secret?: string } = {}) {
  const response = await postAdvance(services, body, init);
  return {
    status: response.status,
    body: (await response.json()) as { error: { code: string; message: string; issues?: string[] } },
  };
}

describe('POST /v1/advance refuses bad requests with a clear error', () => {
  it('401 without the shared secret, on every /v1 route', async () => {
    expect(await refused(advanceBody(RUN, {}), { secret: 'not-the-secret' })).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthorized', message: expect.stringMatching(/PROXY_SECRET/) } },
    });
    const models = await fetch(`${services.proxyUrl}/v1/models`);
    expect(models.status).toBe(401);
  });

  it('400 for a body that is not JSON', async () => {
    expect(await refused('{"runId":')).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
  });

  it('400 with the zod issues for an invalid body', async () => {
    const result = await refused({ runId: 'nope', config: { maxRetries: 0, extra: 1 }, checkpoint: null });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('invalid_request');
    expect(result.body.error.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^runId: /),
        expect.stringMatching(/^config\.maxRetries: must be at least 1/),
        expect.stringMatching(/extra/),
      ]),
    );
  });

  it('400 for a level the practice range does not have', async () => {
    const body = advanceBody(RUN, {});
    const result = await refused({ ...body, config: { ...body.config, endLevel: 33 } });
    expect(result).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    expect(result.body.error.issues).toEqual(['config.endLevel: must be at most 32']);
  });

  it('400 for a model this proxy does not offer, so no client is made for it', async () => {
    const result = await refused(advanceBody(RUN, { model: 'made-up-model' }));
    expect(result).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'unknown_model',
          message: 'config.model: "made-up-model" is not offered here; use one of: baseline, human',
        },
      },
    });
  });

  it('400 for a checkpoint from another version or with a broken state', async () => {
    const foreign = await refused({ ...advanceBody(RUN, {}), checkpoint: { ...checkpoint, version: 99 } });
    expect(foreign).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'invalid_checkpoint',
          message: expect.stringMatching(/version 99 is not supported.*Start a new run/),
        },
      },
    });
    const broken = await refused({ ...advanceBody(RUN, {}), checkpoint });
    expect(broken).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_checkpoint', message: expect.stringMatching(/state is invalid: level: /) } },
    });
  });

  it('413 for a body over the request cap', async () => {
    const huge = { ...advanceBody(RUN, {}), padding: 'x'.repeat(5 * 1024 * 1024) };
    expect(await refused(huge)).toMatchObject({ status: 413, body: { error: { code: 'body_too_large' } } });
  });

  it('answers a fuzzed corpus of bad bodies with 4xx, never a 5xx or a stream', async () => {
    const value = fc.oneof(fc.jsonValue(), fc.string(), fc.constant(null), fc.constant(-1));
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            runId: value,
            config: fc.oneof(value, fc.record({ model: value, endLevel: value, target: value }, { requiredKeys: [] })),
            checkpoint: value,
            resume: value,
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const response = await postAdvance(services, text);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get('content-type')).toMatch(/application\/json/);
        await response.text();
      }),
      { numRuns: 500 },
    );
    console.log(`fuzz /v1/advance: ${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')}`);
  });

  it('409 for an answer when nothing is waiting for one', async () => {
    const noCheckpoint = await refused(advanceBody(RUN, {}, null, { action: 'stop' }));
    expect(noCheckpoint).toMatchObject({ status: 409, body: { error: { code: 'not_interrupted' } } });
  });
});
