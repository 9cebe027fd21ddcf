// The agent with an OpenAI-compatible model: the real `openai` SDK talks to a fake endpoint on
// loopback while the graph plays the real practice range. Scripted tool calls, rate limits,
// timeouts, garbage, bad keys, and wrong passwords until the pause.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyEvent } from '../../schema/protocol.ts';
import { modelListSchema } from '../../schema/protocol.ts';
import { passwordShapedTokens } from '../../ssh-proxy/targets/target.ts';
import { advance, advanceBody } from '../support/advance-client.ts';
import { freePort } from '../support/free-port.ts';
import type { ChatRequest, FakeOpenAi, FakeReply } from '../support/fake-openai.ts';
import { startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

const API_KEY = 'sk-test-key-that-must-never-leak';
let fake: FakeOpenAi;
let services: LoopbackServices;
let serial = 0;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  services = await startLoopbackServices({
    PROXY_SLICE_MS: '60000',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: API_KEY,
    OPENAI_MODELS: 'fake-model,fake-knowledge',
    OPENAI_TIMEOUT_MS: '300',
    LLM_MAX_ATTEMPTS: '3',
    LLM_BACKOFF_MS: '5',
    LLM_BACKOFF_MAX_MS: '20',
  });
});
afterAll(async () => {
  await services.close();
  await fake.close();
});

const ofType = <T extends ProxyEvent['type']>(events: ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);
const runId = () => `run_openai${String(++serial).padStart(16, '0')}`;
const play = (config: Record<string, unknown>) =>
  advance(services, advanceBody(runId(), { model: 'fake-model', ...config }));

/** A competent player for level 0: read the readme, then submit what it found. */
function solver(request: ChatRequest): FakeReply {
  if (!request.tools) return textReply('- read the readme first');
  const results = request.messages.filter((m) => m.role === 'tool');
  const found = passwordShapedTokens(String(results.at(-1)?.content ?? ''));
  if (found[0]) return toolCall('submit_password', { password: found[0] }, 'The readme holds it.');
  return toolCall('run_command', { command: 'cat readme' }, 'The goal says the password is in readme.');
}

const isFinalCall = (request: ChatRequest) => JSON.stringify(request.tools ?? []).includes('"final_commands"');

/** The knowledge model's answer to the final attempt: a final_commands tool call. */
function finalCommands(commands: string[], thinking: string): FakeReply {
  const reply = toolCall('run_command', {}, thinking);
  const body = reply.body as {
    choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
  };
  const fn = body.choices[0]!.message.tool_calls[0]!.function;
  fn.name = 'final_commands';
  fn.arguments = JSON.stringify({ commands });
  return reply;
}

describe('agent with an OpenAI-compatible model', () => {
  it('solves a level with scripted tool calls, reporting every call with its tokens', async () => {
    fake.respond(solver);
    const before = fake.requests.length;
    const reply = await play({ endLevel: 0 });
    expect(reply.end.outcome).toBe('completed');
    expect(ofType(reply.events, 'command').map((c) => c.command)).toEqual(['cat readme']);
    expect(ofType(reply.events, 'password_found')[0]?.password).toBe(services.range.world.passwords[1]);
    expect(ofType(reply.events, 'thinking').map((t) => t.text)).toEqual([
      'The goal says the password is in readme.',
      'The readme holds it.',
    ]);
    const calls = ofType(reply.events, 'llm_call');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      model: 'fake-model',
      stage: 'plan',
      promptTokens: 120,
      completionTokens: 30,
      errorClass: null,
    });

    const sent = fake.requests.slice(before);
    expect(sent.every((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
    // The second request carries the first tool call and its output as a transcript.
    expect(sent[1]?.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    // Traces carry the raw request and response; the key is in no line.
    const traces = reply.lines.filter((l) => l.type === 'trace');
    expect(traces).toHaveLength(2);
    expect(traces[0]).toMatchObject({
      request: { model: 'fake-model', tools: expect.any(Array) },
      response: { usage: { prompt_tokens: 120 } },
    });
    expect(JSON.stringify(reply.lines)).not.toContain(API_KEY);
  });

  it('backs off on 429 and succeeds, reporting the refused call too', async () => {
    let refused = 0;
    fake.respond((request) =>
      refused++ === 0
        ? { status: 429, headers: { 'retry-after-ms': '10' }, body: { error: { message: 'slow down' } } }
        : solver(request),
    );
    const reply = await play({ endLevel: 0 });
    expect(reply.end.outcome).toBe('completed');
    expect(ofType(reply.events, 'llm_call').map((c) => c.errorClass)).toEqual(['rate_limited', null, null]);
  });

  it('pauses with llm_error when every try times out, saying what to change', async () => {
    fake.respond(() => ({ ...toolCall('run_command', { command: 'ls' }), delayMs: 2_000 }));
    const reply = await play({ endLevel: 0 });
    expect(ofType(reply.events, 'llm_call').map((c) => c.errorClass)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'llm_error',
      lastError: expect.stringMatching(/OPENAI_TIMEOUT_MS.*\(3 tries\)/),
    });
    expect(reply.events.at(-1)?.type).toBe('user_action_required');
  });

  it('treats garbage as a malformed response: retried, then a pause that names the problem', async () => {
    const garbage: FakeReply[] = [
      toolCall('run_command', 'rm -rf {'),
      toolCall('run_command', { cmd: 'ls' }),
      { raw: 'this is not JSON', headers: { 'content-type': 'application/json' } },
    ];
    fake.respond((_request, n) => garbage[n % garbage.length] ?? garbage[0]!);
    const reply = await play({ endLevel: 0 });
    const classes = ofType(reply.events, 'llm_call').map((c) => c.errorClass);
    expect(classes).toHaveLength(3);
    expect(classes.every((c) => c === 'malformed_response')).toBe(true);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'llm_error',
      lastError: expect.stringMatching(/malformed|not JSON|arguments/),
    });
  });

  it('pauses at once on a refused key, without retrying', async () => {
    const before = fake.requests.length;
    fake.respond(() => ({
      status: 401,
      body: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    }));
    const reply = await play({ endLevel: 0 });
    expect(fake.requests.length - before).toBe(1);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'llm_error',
      lastError: expect.stringMatching(/set a valid OPENAI_API_KEY/),
    });
  });

  it('tells a context that is too long apart from other refusals', async () => {
    fake.respond(() => ({
      status: 400,
      body: {
        error: { message: "This model's maximum context length is 8192 tokens", code: 'context_length_exceeded' },
      },
    }));
    const reply = await play({ endLevel: 0 });
    expect(ofType(reply.events, 'llm_call')[0]?.errorClass).toBe('context_too_long');
    expect(reply.end.interrupt?.lastError).toMatch(/lower the run's budget/);
  });

  it('pauses at max retries after wrong passwords: the pause is the last event and nothing completes', async () => {
    fake.respond((request, n) =>
      request.tools
        ? toolCall('submit_password', { password: `Wrong${String(n).padStart(27, '0')}` })
        : textReply('1. Guessing does not work.\n2. Read files first.'),
    );
    const reply = await play({ endLevel: 0, maxRetries: 2, budget: 3, finalAttempt: false });
    expect(ofType(reply.events, 'llm_call').filter((c) => c.stage === 'final')).toEqual([]);
    const failed = ofType(reply.events, 'attempt_failed');
    expect(failed.map((f) => [f.attempt, f.retryCount, f.reason])).toEqual([
      [1, 1, 'budget_spent'],
      [2, 2, 'budget_spent'],
    ]);
    expect(failed[0]?.lessons).toEqual([
      { text: 'Guessing does not work.', source: 'model', level: 0 },
      { text: 'Read files first.', source: 'model', level: 0 },
    ]);
    expect(reply.events.at(-1)).toMatchObject({
      type: 'user_action_required',
      reason: 'max_retries',
      retryCount: 2,
      maxRetries: 2,
    });
    expect(reply.events.at(-1)).toHaveProperty(
      'lessons',
      expect.arrayContaining([expect.objectContaining({ text: 'Read files first.' })]),
    );
    expect(ofType(reply.events, 'run_complete')).toEqual([]);
    expect(reply.end.outcome).toBe('interrupted');
  });

  it("makes a final attempt after the last retry: the knowledge model's commands run and their password solves the level", async () => {
    const before = fake.requests.length;
    fake.respond((request, n) => {
      if (isFinalCall(request)) return finalCommands(['ls -la', 'cat readme'], 'Every lesson says: read the readme.');
      return request.tools
        ? toolCall('run_command', { command: `echo guess ${n}` })
        : textReply('- the readme was never read');
    });
    const reply = await play({ endLevel: 0, maxRetries: 2, budget: 2, knowledgeModel: 'fake-knowledge' });
    const finals = ofType(reply.events, 'llm_call').filter((c) => c.stage === 'final');
    expect(finals.map((c) => [c.model, c.errorClass])).toEqual([['fake-knowledge', null]]);
    // The knowledge model was shown every lesson and the last commands of each attempt.
    const finalRequest = fake.requests.slice(before).find((r) => isFinalCall(r.body))!.body;
    const shown = JSON.stringify(finalRequest.messages);
    expect(shown).toContain('the readme was never read');
    expect(shown).toMatch(/Attempt 1:\\n\$ echo guess \d+/);
    expect(shown).toMatch(/Attempt 2:/);
    expect(finalRequest.model).toBe('fake-knowledge');
    // Its commands ran after the second failed attempt, and the level is recorded as solved by it.
    const types = reply.events.map((e) => e.type);
    expect(types.lastIndexOf('attempt_failed')).toBeLessThan(types.indexOf('password_found'));
    expect(
      ofType(reply.events, 'command')
        .slice(-2)
        .map((c) => c.command),
    ).toEqual(['ls -la', 'cat readme']);
    expect(ofType(reply.events, 'level_complete')).toEqual([
      expect.objectContaining({ level: 0, solvedBy: 'final_attempt' }),
    ]);
    expect(ofType(reply.events, 'user_action_required')).toEqual([]);
    expect(reply.events.at(-1)).toMatchObject({ type: 'run_complete', status: 'completed', levelsSolved: 1 });
  });

  it('pauses as before when the final attempt finds nothing, and the question says what it tried', async () => {
    fake.respond((request) => {
      if (isFinalCall(request)) return finalCommands(['ls'], 'Maybe it is listed.');
      return request.tools ? toolCall('run_command', { command: 'echo nothing' }) : textReply('- nothing worked');
    });
    const reply = await play({ endLevel: 0, maxRetries: 1, budget: 1 });
    expect(
      ofType(reply.events, 'llm_call')
        .filter((c) => c.stage === 'final')
        .map((c) => c.model),
    ).toEqual(['fake-model']);
    const last = reply.events.at(-1);
    expect(last).toMatchObject({
      type: 'user_action_required',
      reason: 'max_retries',
      finalAttempt: { commands: ['ls'], outcome: expect.stringMatching(/printed nothing shaped like a password/) },
    });
    expect(ofType(reply.events, 'run_complete')).toEqual([]);
    expect(ofType(reply.events, 'password_found')).toEqual([]);
    expect(reply.end).toMatchObject({ outcome: 'interrupted', interrupt: { finalAttempt: { commands: ['ls'] } } });
  });

  it('ends an attempt on a loop, and pauses with loop_detected when the loop survives a retry', async () => {
    fake.respond((request) =>
      request.tools ? toolCall('run_command', { command: 'ls' }) : textReply('Stop repeating ls.'),
    );
    const reply = await play({ endLevel: 0, maxRetries: 5 });
    const failed = ofType(reply.events, 'attempt_failed');
    expect(failed.map((f) => f.reason)).toEqual(['loop_detected', 'loop_detected']);
    // Each attempt ran ls twice; the third was refused as a loop.
    expect(ofType(reply.events, 'command').map((c) => c.command)).toEqual(['ls', 'ls', 'ls', 'ls']);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'loop_detected',
      retryCount: 2,
      maxRetries: 5,
      lastError: expect.stringMatching(/keeps repeating `ls`/),
    });
  });

  it('lists the configured models next to baseline and human', async () => {
    const response = await fetch(`${services.proxyUrl}/v1/models`, {
      headers: { authorization: `Bearer ${services.proxySecret}` },
    });
    expect(modelListSchema.parse(await response.json()).models).toEqual([
      { id: 'baseline', provider: 'baseline', available: true, maxConcurrent: null, price: { input: 0, output: 0 } },
      { id: 'human', provider: 'human', available: true, maxConcurrent: null, price: { input: 0, output: 0 } },
      { id: 'fake-model', provider: 'openai', available: true, maxConcurrent: 4, price: null },
      { id: 'fake-knowledge', provider: 'openai', available: true, maxConcurrent: 4, price: null },
    ]);
  });
});

describe('model failures the taxonomy names', () => {
  const cases: [string, () => FakeReply, string, RegExp][] = [
    [
      'an account out of quota',
      () => ({
        status: 429,
        body: {
          error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
        },
      }),
      'quota_exceeded',
      /out of quota/,
    ],
    [
      'a model the endpoint does not know',
      () => ({ status: 404, body: { error: { message: 'The model does not exist', code: 'model_not_found' } } }),
      'unknown_model',
      /does not know the model "fake-model"/,
    ],
    [
      'an answer cut at the output limit',
      () => {
        const reply = toolCall('run_command', '{"command": "ls -');
        (reply.body as { choices: { finish_reason: string }[] }).choices[0]!.finish_reason = 'length';
        return reply;
      },
      'truncated_response',
      /cut off at its output limit/,
    ],
  ];
  for (const [name, reply, errorClass, message] of cases) {
    it(`classifies ${name} as ${errorClass} and pauses with llm_error`, async () => {
      fake.respond(reply);
      const result = await play({ endLevel: 0 });
      expect(ofType(result.events, 'llm_call').map((c) => c.errorClass)).toContain(errorClass);
      expect(result.end.interrupt).toMatchObject({ reason: 'llm_error', lastError: expect.stringMatching(message) });
    });
  }
});

describe('agent that cannot reach its target', () => {
  it('pauses with ssh_error, telling an unreachable host from a wrong password', async () => {
    const nowhere = await startLoopbackServices({ PRACTICE_PORT: String(await freePort()) });
    try {
      const reply = await advance(nowhere, advanceBody(runId(), { endLevel: 0 }));
      expect(ofType(reply.events, 'error')[0]).toMatchObject({ code: 'ssh_unreachable', level: 0 });
      expect(reply.end.interrupt).toMatchObject({
        reason: 'ssh_error',
        lastError: expect.stringMatching(/cannot reach the host \(ECONNREFUSED\).*continue tries the login again/),
      });
    } finally {
      await nowhere.close();
    }
  });
});

describe('agent without an API key', () => {
  it('pauses with llm_error naming OPENAI_API_KEY, and lists the model as unavailable', async () => {
    const keyless = await startLoopbackServices({
      OPENAI_MODELS: 'fake-model',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    try {
      const reply = await advance(keyless, advanceBody(runId(), { model: 'fake-model', endLevel: 0 }));
      expect(ofType(reply.events, 'llm_call')[0]?.errorClass).toBe('missing_key');
      expect(reply.end.interrupt).toMatchObject({
        reason: 'llm_error',
        lastError: expect.stringMatching(/OPENAI_API_KEY is not set/),
      });
      const models = await fetch(`${keyless.proxyUrl}/v1/models`, {
        headers: { authorization: `Bearer ${keyless.proxySecret}` },
      });
      expect(modelListSchema.parse(await models.json()).models[2]).toEqual({
        id: 'fake-model',
        provider: 'openai',
        available: false,
        reason: 'OPENAI_API_KEY is not set in the proxy',
        maxConcurrent: 4,
        price: null,
      });
    } finally {
      await keyless.close();
    }
  });
});
