// The limits of one /v1/advance call: a model answer that outlives the call is cut and the call
// yields from the last checkpoint; one call per run at a time (a second gets 409 run_busy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProxySettings } from '../../ssh-proxy/settings.ts';
import { advance, advanceBody, parseReply, postAdvance } from '../support/advance-client.ts';
import { startFakeOpenAi, toolCall } from '../support/fake-openai.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let fake: FakeOpenAi;
let services: LoopbackServices;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  services = await startLoopbackServices({
    PROXY_SLICE_MS: '50',
    PROXY_CALL_MAX_MS: '600',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODELS: 'slow-model',
    // Each try times out and is tried again: together they outlive the 600 ms call.
    OPENAI_TIMEOUT_MS: '250',
    LLM_MAX_ATTEMPTS: '4',
    LLM_BACKOFF_MS: '100',
  });
});
afterAll(async () => {
  await services.close();
  await fake.close();
});

describe('call limits', () => {
  it('refuses at start-up limits under which a model answer could never arrive', () => {
    const env = { PROXY_SECRET: 'a-secret-of-enough-length', PROXY_CALL_MAX_MS: '5000' };
    expect(() => readProxySettings({ ...env, OPENAI_TIMEOUT_MS: '5000' })).toThrow(
      /OPENAI_TIMEOUT_MS: must be less than PROXY_CALL_MAX_MS \(5000\)/,
    );
    expect(() => readProxySettings({ ...env, PROXY_SLICE_MS: '6000', OPENAI_TIMEOUT_MS: '100' })).toThrow(
      /PROXY_CALL_MAX_MS: must be more than PROXY_SLICE_MS/,
    );
  });

  it('cuts a model call that outlives the call and yields from the last checkpoint', async () => {
    fake.respond(() => ({ ...toolCall('run_command', { command: 'ls' }), delayMs: 3_000 }));
    const started = Date.now();
    const reply = await advance(services, advanceBody('run_limits0000000000000001', { model: 'slow-model' }));
    expect(reply.end.outcome).toBe('yielded');
    expect(Date.now() - started).toBeLessThan(2_500);
    // connect ran and was saved; plan was cut, so it has no node record and no checkpoint (model
    // tries it finished before the cut may be reported: they happened).
    const nodes = reply.events.flatMap((e) => (e.type === 'node' ? [e.name] : []));
    expect(nodes).toEqual(['connect']);
    expect(reply.events.map((e) => e.type)).not.toContain('thinking');
    expect(reply.last).toMatchObject({ next: 'plan' });
  });

  it('refuses a second call for a run that has one in progress, then takes the next one', async () => {
    fake.respond(() => ({ ...toolCall('run_command', { command: 'ls' }), delayMs: 3_000 }));
    const body = advanceBody('run_limits0000000000000002', { model: 'slow-model' });
    const first = postAdvance(services, body);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await postAdvance(services, body);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({
      error: { code: 'run_busy', message: expect.stringMatching(/already has a call in progress/) },
    });
    const firstReply = parseReply(await (await first).text());
    expect(firstReply.end.outcome).toBe('yielded');
    const third = await postAdvance(services, { ...body, checkpoint: firstReply.last });
    expect(third.status).toBe(200);
    await third.text();
  });
});
