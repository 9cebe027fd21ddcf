// A hostile model, through the real `openai` SDK against a fake endpoint, on the real practice range:
// 3 MB of thinking, tool arguments with quotes, $(…), backticks, newlines and NULs, a 3 MB command,
// a 3 MB tool call id, 3 MB of lessons and a 3 MB error. No line over the limit, no crash; a command
// runs exactly as written (the range's shell reads it once) or is refused with a clear reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyEvent, ProxyRequest } from '../../schema/protocol.ts';
import { MAX_PROXY_LINE_BYTES } from '../../schema/protocol.ts';
import { STATE_TEXT_BYTES, THINKING_EVENT_BYTES } from '../../ssh-proxy/agent/state-text.ts';
import { jsonStringBytes } from '../../ssh-proxy/json-fit.ts';
import { LIVE_TEXT_MAX_CHARS } from '../../ssh-proxy/live-thinking.ts';
import { passwordShapedTokens } from '../../ssh-proxy/targets/target.ts';
import type { AdvanceReply } from '../support/advance-client.ts';
import { advanceBody, parseReply, postAdvance } from '../support/advance-client.ts';
import type { ChatRequest, FakeOpenAi, FakeReply } from '../support/fake-openai.ts';
import { splitText, startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let fake: FakeOpenAi;
let services: LoopbackServices;
let serial = 0;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  services = await startLoopbackServices({
    PROXY_SLICE_MS: '60000',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODELS: 'fake-model',
    LLM_MAX_ATTEMPTS: '2',
    LLM_BACKOFF_MS: '5',
    LLM_BACKOFF_MAX_MS: '10',
  });
});
afterAll(async () => {
  await services.close();
  await fake.close();
});

const MB3 = 3 * 1024 * 1024;
/** Text a model might write to break things: NULs, escapes, quotes, substitutions, emoji, newlines. */
const nasty = (bytes: number) => 'think \x00\x1b[2J "q" `id` $(whoami) 🎉\n'.repeat(Math.ceil(bytes / 40));
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const ofType = <T extends ProxyEvent['type']>(events: ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);

/** One call to the end, every raw line measured in bytes before it is parsed. */
async function play(
  config: Record<string, unknown>,
  extra: Partial<ProxyRequest> = {},
): Promise<AdvanceReply & { largest: number }> {
  const response = await postAdvance(services, {
    ...advanceBody(`run_hostilemodel${String(++serial).padStart(12, '0')}`, {
      model: 'fake-model',
      endLevel: 0,
      ...config,
    }),
    ...extra,
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const largest = Math.max(
    ...text
      .split('\n')
      .filter(Boolean)
      .map((l) => Buffer.byteLength(l)),
  );
  expect(largest).toBeLessThanOrEqual(MAX_PROXY_LINE_BYTES);
  return { ...parseReply(text), largest };
}

/** Submits a password the last tool result showed, else reads the readme. */
function solver(request: ChatRequest): FakeReply {
  if (!request.tools) return textReply('- read the readme');
  const found = passwordShapedTokens(String(request.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? ''));
  return found[0]
    ? toolCall('submit_password', { password: found[0] })
    : toolCall('run_command', { command: 'cat readme' });
}

/** Each request gets the next reply of the script; after it, the solver plays. */
const script = (replies: FakeReply[]) => (request: ChatRequest) => replies.shift() ?? solver(request);

/** Quotes, $(…), backticks, a newline and a semicolon: the range's shell must read them once, as written. */
const TRICKY = `printf '[%s]\\n' '$(whoami)' '\`whoami\`' "it's" 'semi;colon'\necho "two $(printf x)"`;
const TRICKY_OUTPUT = "[$(whoami)]\n[`whoami`]\n[it's]\n[semi;colon]\ntwo x\n";

describe('a hostile model', () => {
  it('survives 3 MB of thinking and runs a tricky command exactly as written', async () => {
    const thinking = nasty(MB3);
    const reply = toolCall('run_command', { command: TRICKY }, thinking);
    fake.respond(script([{ ...reply, pieces: splitText(thinking, 256 * 1024) }]));
    const before = fake.requests.length;
    const run = await play({});
    expect(run.end.outcome).toBe('completed');

    // Run once, as written: the substitutions stayed literal where quoted and ran where not.
    expect(ofType(run.events, 'command')[0]!.command).toBe(TRICKY);
    expect(ofType(run.events, 'output')[0]).toMatchObject({ stdout: TRICKY_OUTPUT, exitCode: 0 });

    // The log keeps the words as written, cut to its cap; watchers saw the start; the history a short visible copy.
    const logged = ofType(run.events, 'thinking')[0]!.text;
    expect(Buffer.byteLength(JSON.stringify(logged))).toBeLessThanOrEqual(THINKING_EVENT_BYTES);
    expect(logged.startsWith('think \x00\x1b[2J "q" `id` $(whoami)')).toBe(true);
    const live = run.lines.flatMap((l) => (l.type === 'live' ? [l.text] : [])).join('');
    expect(live.length).toBeLessThan(LIVE_TEXT_MAX_CHARS + 200);
    expect(live).toMatch(/live text stops at 65536 characters/);
    const kept = run.checkpoints.flatMap((c) => (c.state as { history: { thinking: string }[] }).history)[0]!.thinking;
    expect(jsonStringBytes(kept)).toBeLessThanOrEqual(STATE_TEXT_BYTES.thinking);
    expect(kept).toMatch(/^think \^@\^\[\[2J "q" `id` \$\(whoami\) 🎉/);
    expect(kept).not.toMatch(UNSAFE);
    // The trace of that call lost its bodies rather than the line; the next request carried the short copy.
    expect(run.lines.find((l) => l.type === 'trace')).toMatchObject({
      request: { omitted: expect.stringMatching(/over the 1048576-byte line limit/) },
    });
    expect(fake.requests[before + 1]!.body.messages[2]).toMatchObject({ role: 'assistant', content: kept });
  }, 60_000);

  it('refuses a command or a password with a NUL, or of 3 MB, with the reason, and runs or tries neither', async () => {
    const cases = [
      [
        'run_command',
        { command: 'cat readme\x00; rm -rf ~' },
        /bad run_command arguments: command: must not hold control characters \(found "\\u0000"\)/,
      ],
      [
        'run_command',
        { command: `echo ${'$(x)`y`'.repeat(MB3 / 8)}` },
        /bad run_command arguments: command: must be at most 2000 characters/,
      ],
      [
        'submit_password',
        { password: 'x'.repeat(MB3) },
        /bad submit_password arguments: password: must be at most 200 characters/,
      ],
      [
        'submit_password',
        { password: `${'\x00'.repeat(31)}A` },
        /bad submit_password arguments: password: must not hold control characters/,
      ],
    ] as const;
    for (const [tool, args, reason] of cases) {
      fake.respond(() => toolCall(tool, args));
      const run = await play({});
      expect(ofType(run.events, 'command')).toEqual([]);
      expect(ofType(run.events, 'password_found')).toEqual([]);
      expect(ofType(run.events, 'llm_call').map((c) => c.errorClass)).toEqual([
        'malformed_response',
        'malformed_response',
      ]);
      expect(run.end.interrupt).toMatchObject({ reason: 'llm_error', lastError: expect.stringMatching(reason) });
    }
  }, 60_000);

  it('keeps a 3 MB tool call id and 3 MB of lessons out of the state, and goes on', async () => {
    const hugeId = toolCall('run_command', { command: 'ls' });
    const body = hugeId.body as { choices: { message: { tool_calls: { id: string }[] } }[] };
    body.choices[0]!.message.tool_calls[0]!.id = `call_${'\x1b'.repeat(MB3)}`;
    fake.respond(script([hugeId]));
    const run = await play({});
    expect(run.end.outcome).toBe('completed');
    for (const checkpoint of run.checkpoints)
      expect(Buffer.byteLength(JSON.stringify(checkpoint))).toBeLessThan(100_000);
    const turn = run.checkpoints.flatMap((c) => (c.state as { history: { callId: string }[] }).history)[0]!;
    expect(jsonStringBytes(turn.callId)).toBeLessThanOrEqual(STATE_TEXT_BYTES.short);
    expect(turn.callId).toMatch(/^call_\^\[\^\[/);

    // Reflect answers 3 MB of lessons: at most three short visible lines are kept, each text once (its
    // lines cut to the same visible prefix are one lesson).
    fake.respond((request) =>
      request.tools ? toolCall('run_command', { command: `echo ${Math.random()}` }) : textReply(nasty(MB3)),
    );
    const reflected = await play({ budget: 1, maxRetries: 1, finalAttempt: false });
    expect(reflected.end.interrupt).toMatchObject({ reason: 'max_retries' });
    const lessons = reflected.end.interrupt!.lessons;
    expect(lessons.length).toBeGreaterThanOrEqual(1);
    expect(lessons.length).toBeLessThanOrEqual(3);
    expect(new Set(lessons.map((l) => l.text)).size).toBe(lessons.length);
    for (const lesson of lessons) {
      expect(jsonStringBytes(lesson.text)).toBeLessThanOrEqual(STATE_TEXT_BYTES.note);
      expect(lesson.text).not.toMatch(UNSAFE);
    }
  }, 60_000);

  it('pauses on a 3 MB error from the endpoint with a short, visible message', async () => {
    fake.respond(() => ({ status: 400, body: { error: { message: nasty(MB3), type: 'invalid_request_error' } } }));
    const run = await play({});
    expect(run.end.interrupt).toMatchObject({ reason: 'llm_error' });
    const lastError = run.end.interrupt!.lastError!;
    expect(Buffer.byteLength(lastError)).toBeLessThan(2_000);
    expect(lastError).toMatch(/refused the request: 400 think \^@\^\[\[2J/);
    expect(lastError).not.toMatch(UNSAFE);
  }, 60_000);
});
