// Several providers in one proxy: the providers file and its refusals, models named provider/model
// with limits and prices, streamed calls and the fallback for an endpoint that cannot stream, the
// live text's coalescing and redaction, and the fake providers of scripts/fake-providers.ts playing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyLine } from '../../schema/protocol.ts';
import { modelListSchema } from '../../schema/protocol.ts';
import { LiveThinking } from '../../ssh-proxy/live-thinking.ts';
import { Redactor } from '../../ssh-proxy/redactor.ts';
import { readProxySettings } from '../../ssh-proxy/settings.ts';
import { defaultOutputLimit, parseProviders } from '../../ssh-proxy/models/providers.ts';
import { baselineResponder } from '../../scripts/fake-llm/baseline-responder.ts';
import { advance, advanceBody } from '../support/advance-client.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { startFakeOpenAi } from '../support/fake-openai.ts';
import { player } from '../support/fake-player.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

const SECRET = { PROXY_SECRET: 'a-secret-of-at-least-16' };
const settingsError = (env: Record<string, string>) => {
  try {
    readProxySettings({ ...SECRET, ...env });
  } catch (err) {
    return (err as Error).message;
  }
  return null;
};

describe('the providers file', () => {
  it('refuses at start-up what could not run, naming what to fix', () => {
    expect(settingsError({ PROVIDERS: '{not json' })).toMatch(/PROVIDERS is not JSON/);
    expect(
      settingsError({
        PROVIDERS: JSON.stringify({
          providers: [{ name: 'x', baseUrl: 'http://127.0.0.1:1/v1', apiKeyEnv: 'sk-abc123', models: ['m'] }],
        }),
      }),
    ).toMatch(/apiKeyEnv: must be the NAME of an environment variable/);
    expect(
      settingsError({
        PROVIDERS: JSON.stringify({ providers: [{ name: 'x', baseUrl: 'http://127.0.0.1:1/v1', models: [] }] }),
      }),
    ).toMatch(/models: list at least one model/);
    const twice = {
      providers: [
        { name: 'a', baseUrl: 'http://127.0.0.1:1/v1', models: ['m'] },
        { name: 'a', baseUrl: 'http://127.0.0.1:2/v1', models: ['n'] },
      ],
    };
    expect(settingsError({ PROVIDERS: JSON.stringify(twice) })).toMatch(/"a" is listed twice/);
    expect(settingsError({ PROVIDERS_FILE: '/nonexistent/providers.json' })).toMatch(
      /PROVIDERS_FILE: cannot read \/nonexistent\/providers.json \(ENOENT\)/,
    );
    expect(settingsError({ PROVIDERS: '{"providers":[]}', PROVIDERS_FILE: '/x' })).toMatch(
      /set PROVIDERS_FILE or PROVIDERS, not both/,
    );
    const clash = { providers: [{ name: 'openai', baseUrl: 'http://127.0.0.1:1/v1', models: ['m'] }] };
    expect(settingsError({ PROVIDERS: JSON.stringify(clash), OPENAI_MODELS: 'gpt' })).toMatch(
      /both define provider "openai"/,
    );
  });

  it('reads a file: models named provider/model, keys from the variables it names, prices and limits', () => {
    const dir = mkdtempSync(join(tmpdir(), 'providers-'));
    const file = join(dir, 'providers.json');
    writeFileSync(
      file,
      JSON.stringify({
        providers: [
          {
            name: 'openrouter',
            baseUrl: 'https://openrouter.ai/api/v1/',
            apiKeyEnv: 'OPENROUTER_API_KEY',
            maxConcurrent: 3,
            models: [
              { name: 'meta-llama/llama-3.3-70b-instruct', price: { input: 0.1, output: 0.3 }, maxOutputTokens: 8000 },
            ],
          },
          { name: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', models: ['qwen2.5:7b'] },
        ],
      }),
    );
    const settings = readProxySettings({ ...SECRET, PROVIDERS_FILE: file, OPENROUTER_API_KEY: 'sk-or-1' });
    expect(settings.providers).toEqual([
      {
        name: 'openrouter',
        baseUrl: 'https://openrouter.ai/api/v1',
        apiKey: 'sk-or-1',
        keyEnv: 'OPENROUTER_API_KEY',
        maxConcurrent: 3,
        stream: true,
        outputLimit: 'max_tokens',
        models: [
          {
            id: 'openrouter/meta-llama/llama-3.3-70b-instruct',
            remote: 'meta-llama/llama-3.3-70b-instruct',
            price: { input: 0.1, output: 0.3 },
            maxOutputTokens: 8000,
          },
        ],
      },
      {
        name: 'ollama',
        baseUrl: 'http://127.0.0.1:11434/v1',
        apiKey: null,
        keyEnv: null,
        maxConcurrent: 4,
        stream: true,
        outputLimit: 'max_tokens',
        models: [{ id: 'ollama/qwen2.5:7b', remote: 'qwen2.5:7b', price: null, maxOutputTokens: 4096 }],
      },
    ]);
  });
});

describe('live text', () => {
  it('sends the first piece at once, coalesces the rest, and never lets part of a secret out', async () => {
    const lines: Extract<ProxyLine, { type: 'live' }>[] = [];
    const secret = 'hunter2hunter2hunter2';
    const live = new LiveThinking((line) => lines.push(line), new Redactor([secret]), 50);
    live.push(0, 'plan', 'The password is ');
    for (const piece of ['hunt', 'er2hu', 'nter2', 'hunter2', ' so I submit it.']) live.push(0, 'plan', piece);
    await new Promise((r) => setTimeout(r, 80));
    live.end();
    const text = lines.map((l) => l.text).join('');
    expect(text).toBe('The password is [redacted] so I submit it.');
    // The first piece went at once, then the rest within one more interval and the end: few lines.
    expect(lines[0]!.text).toBe('The password is ');
    expect(lines.length).toBeLessThanOrEqual(3);
    for (const line of lines) expect(secret.includes(line.text.trim()) && line.text.trim().length > 3).toBe(false);
  });
});

describe('providers playing', () => {
  let services: LoopbackServices;
  let streaming: FakeOpenAi;
  let plain: FakeOpenAi;

  beforeAll(async () => {
    streaming = await startFakeOpenAi();
    streaming.respond(baselineResponder({ pieceDelayMs: 0, persona: 'Quick' }));
    // An endpoint that answers every request whole, even one that asks to stream.
    plain = await startFakeOpenAi({ streams: false });
    plain.respond(player());
    services = await startLoopbackServices({
      PROXY_SLICE_MS: '60000',
      PROVIDERS: JSON.stringify({
        providers: [
          {
            name: 'quick',
            baseUrl: streaming.baseUrl,
            apiKeyEnv: 'QUICK_KEY',
            maxConcurrent: 3,
            models: [{ name: 'mini', price: { input: 1, output: 2 } }],
          },
          { name: 'plain', baseUrl: plain.baseUrl, models: ['old'] },
          { name: 'keyless', baseUrl: plain.baseUrl, apiKeyEnv: 'NOT_SET_ANYWHERE', models: ['m'] },
        ],
      }),
      QUICK_KEY: 'sk-quick-must-not-leak',
    });
  });
  afterAll(async () => {
    await services.close();
    await streaming.close();
    await plain.close();
  });

  it('lists every model with its provider, limit, price and availability', async () => {
    const response = await fetch(`${services.proxyUrl}/v1/models`, {
      headers: { authorization: `Bearer ${services.proxySecret}` },
    });
    const models = modelListSchema.parse(await response.json()).models;
    expect(models.map((m) => m.id)).toEqual(['baseline', 'human', 'quick/mini', 'plain/old', 'keyless/m']);
    expect(models[2]).toEqual({
      id: 'quick/mini',
      provider: 'quick',
      available: true,
      maxConcurrent: 3,
      price: { input: 1, output: 2 },
    });
    expect(models[4]).toMatchObject({ available: false, reason: 'NOT_SET_ANYWHERE is not set in the proxy' });
  });

  it('plays levels 0-3 with the fake provider of scripts/fake-providers.ts, streaming, with time to first token and cost', async () => {
    const reply = await advance(
      services,
      advanceBody('run_providers000000000000001', {
        model: 'quick/mini',
        startLevel: 0,
        endLevel: 3,
        maxRetries: 2,
        budget: 8,
      }),
    );
    expect(reply.end.outcome).toBe('completed');
    const events = reply.lines.flatMap((l) => (l.type === 'event' ? [l.event] : []));
    expect(
      events.filter((e) => e.type === 'level_complete').map((e) => e.type === 'level_complete' && e.level),
    ).toEqual([0, 1, 2, 3]);
    const calls = events.filter((e) => e.type === 'llm_call');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.type === 'llm_call' && call.ttftMs).toBeGreaterThanOrEqual(0);
    expect(calls.every((c) => c.type === 'llm_call' && (c.costUsd ?? 0) > 0)).toBe(true);
    expect(reply.lines.some((l) => l.type === 'live')).toBe(true);
    // The request went out as a stream, and the endpoint was called with the model's own name.
    expect(streaming.requests[0]!.body).toMatchObject({
      model: 'mini',
      stream: true,
      stream_options: { include_usage: true },
    });
    // A run without caps limits no answer: the model's own limit holds (a reasoning model is not cut short).
    for (const request of streaming.requests) {
      expect(request.body).not.toHaveProperty('max_tokens');
      expect(request.body).not.toHaveProperty('max_completion_tokens');
    }
    expect(JSON.stringify(reply.lines)).not.toContain('sk-quick-must-not-leak');
  });

  it('falls back to plain calls for an endpoint that answers a stream request whole, and still solves', async () => {
    const reply = await advance(
      services,
      advanceBody('run_providers000000000000002', {
        model: 'plain/old',
        startLevel: 0,
        endLevel: 0,
        maxRetries: 1,
        budget: 4,
        finalAttempt: false,
      }),
    );
    expect(reply.end.outcome).toBe('completed');
    // The first request asked to stream; once the answer came whole, the model is called plainly.
    expect(plain.requests[0]!.body.stream).toBe(true);
    expect(plain.requests.slice(2).every((r) => r.body.stream === undefined)).toBe(true);
    const calls = reply.lines.flatMap((l) => (l.type === 'event' && l.event.type === 'llm_call' ? [l.event] : []));
    expect(calls.every((c) => c.errorClass === null && c.ttftMs === undefined)).toBe(true);
  });
});

describe('the answer limit a call under a cap carries', () => {
  it("is max_completion_tokens for OpenAI's own API and Azure, max_tokens elsewhere, unless the provider says", () => {
    expect(defaultOutputLimit('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(defaultOutputLimit('https://my-east.openai.azure.com/openai/v1')).toBe('max_completion_tokens');
    expect(defaultOutputLimit('https://openrouter.ai/api/v1')).toBe('max_tokens');
    expect(defaultOutputLimit('http://127.0.0.1:11434/v1')).toBe('max_tokens');
    const [own] = parseProviders(
      JSON.stringify({
        providers: [{ name: 'oai', baseUrl: 'https://api.openai.com/v1', outputLimit: 'max_tokens', models: ['m'] }],
      }),
      'PROVIDERS',
      {},
    );
    expect(own?.outputLimit).toBe('max_tokens');
    expect(() =>
      parseProviders(
        JSON.stringify({
          providers: [{ name: 'x', baseUrl: 'http://h/v1', outputLimit: 'max_output', models: ['m'] }],
        }),
        'PROVIDERS',
        {},
      ),
    ).toThrow(/outputLimit: must be "max_tokens" or "max_completion_tokens"/);
  });
});
