// A target that prints control bytes, NULs, OSC 52 and title sequences, C1 bytes and invalid UTF-8
// for a whole budget, on the real practice range through the real proxy, read as the worker reads it
// (checkpoint patches, each call starting from the whole checkpoint): no line over the limit, and the
// run goes on to solve the level. A state left swollen by an older proxy pauses with state_too_large,
// naming the field, and continue goes on.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint, ProxyEvent, ProxyRequest } from '../../schema/protocol.ts';
import { MAX_PROXY_LINE_BYTES } from '../../schema/protocol.ts';
import { MAX_CHECKPOINT_BYTES } from '../../ssh-proxy/agent/state-limit.ts';
import { STATE_TEXT_BYTES } from '../../ssh-proxy/agent/state-text.ts';
import { jsonStringBytes } from '../../ssh-proxy/json-fit.ts';
import { passwordShapedTokens } from '../../ssh-proxy/targets/target.ts';
import type { AdvanceReply } from '../support/advance-client.ts';
import { advanceBody, parseReply, postAdvance } from '../support/advance-client.ts';
import type { ChatRequest, FakeOpenAi, FakeReply } from '../support/fake-openai.ts';
import { startFakeOpenAi, toolCall } from '../support/fake-openai.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let fake: FakeOpenAi;
let services: LoopbackServices;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  // Short slices: many calls, each starting with the whole checkpoint, as the worker makes them.
  services = await startLoopbackServices({
    PROXY_SLICE_MS: '300',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODELS: 'fake-model',
  });
});
afterAll(async () => {
  await services.close();
  await fake.close();
});

/** Anything a reader could act on: C0 but tab and newline, DEL, C1, bidi controls. */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const FLOODS = 80;
const binary = randomBytes(300).toString('base64');

/** 72 KB of pure control bytes and 300 random bytes on stdout, OSC 52, title sets, clears and C1 on stderr. */
const flood = (i: number) =>
  `printf '\\001\\002\\003\\000\\033\\007%.0s' $(seq 1 12000); echo ${binary} | base64 -d; ` +
  `printf '\\033]52;c;QUJD\\007\\033]0;pwned\\007\\033[2J\\233%.0s' $(seq 1 4000) >&2; echo ${i}`;

/** Floods for the first FLOODS turns, then reads the readme and submits what it found. */
function flooder(request: ChatRequest): FakeReply {
  const results = request.messages.filter((m) => m.role === 'tool');
  if (results.length < FLOODS)
    return toolCall('run_command', { command: flood(results.length) }, `flood ${results.length}`);
  const found = passwordShapedTokens(String(results.at(-1)?.content ?? ''));
  if (found[0]) return toolCall('submit_password', { password: found[0] }, 'The readme holds it.');
  return toolCall('run_command', { command: 'cat readme' }, 'Now the readme.');
}

type Call = { reply: AdvanceReply; lineBytes: number[] };

/** One call, its raw lines measured in bytes before they are parsed. */
async function call(body: ProxyRequest): Promise<Call> {
  const response = await postAdvance(services, body);
  expect(response.status).toBe(200);
  const text = await response.text();
  return {
    reply: parseReply(text),
    lineBytes: text
      .split('\n')
      .filter(Boolean)
      .map((l) => Buffer.byteLength(l)),
  };
}

/** Calls as the worker does (patches, the whole checkpoint sent back) until the run stops yielding. */
async function playOut(first: ProxyRequest, maxCalls = 400): Promise<Call[]> {
  const calls: Call[] = [];
  let body: ProxyRequest = { ...first, checkpointPatches: true };
  for (let i = 0; i < maxCalls; i++) {
    const done = await call(body);
    calls.push(done);
    if (done.reply.end.outcome !== 'yielded') return calls;
    const { resume: _delivered, ...rest } = body;
    body = { ...rest, checkpoint: done.reply.last ?? body.checkpoint };
  }
  throw new Error(`still yielding after ${maxCalls} calls`);
}

const eventsOf = (calls: Call[]): ProxyEvent[] => calls.flatMap((c) => c.reply.events);
const ofType = <T extends ProxyEvent['type']>(events: ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);

describe('a target printing control bytes for the whole budget', () => {
  it('never sends a line over the limit, keeps the raw bytes in the log, and the run goes on to solve the level', async () => {
    fake.respond(flooder);
    const calls = await playOut(
      advanceBody('run_hostiletarget0000000001', {
        model: 'fake-model',
        endLevel: 0,
        budget: FLOODS + 5,
        maxRetries: 1,
      }),
    );
    const events = eventsOf(calls);
    const lineBytes = calls.flatMap((c) => c.lineBytes);
    expect(Math.max(...lineBytes)).toBeLessThanOrEqual(MAX_PROXY_LINE_BYTES);

    // The log keeps what the target printed, byte for byte within SSH_OUTPUT_BYTES.
    const outputs = ofType(events, 'output');
    expect(outputs.length).toBe(FLOODS + 1);
    expect(outputs[0]!.stdout).toContain('\x01\x02\x03\x00\x1b\x07');
    expect(outputs[0]!.stderr).toContain('\x1b]52;c;QUJD\x07');
    expect(outputs[0]!.truncated).toBe(true);

    // The run went on: the level is solved, nothing was cut and nothing paused.
    expect(calls.at(-1)!.reply.end.outcome).toBe('completed');
    expect(ofType(events, 'password_found')).toHaveLength(1);
    expect(ofType(events, 'error')).toEqual([]);

    // What the state kept of each flood is visible and within its cap; the checkpoints stay small.
    const checkpoints = calls.flatMap((c) => c.reply.checkpoints);
    const fullest = checkpoints.reduce((a, b) => (JSON.stringify(a).length > JSON.stringify(b).length ? a : b));
    const history = (fullest.state as { history: { output: string }[] }).history;
    expect(history.length).toBeGreaterThanOrEqual(FLOODS);
    for (const turn of history) {
      expect(jsonStringBytes(turn.output)).toBeLessThanOrEqual(STATE_TEXT_BYTES.output);
      expect(turn.output).not.toMatch(UNSAFE);
    }
    expect(history[0]!.output).toMatch(/^<binary, \d[\d,]* bytes: \\x01\\x02\\x03\\x00\\x1b\\x07/);
    expect(history[0]!.output).toMatch(/\[stderr\]\n\^\[\]52;c;QUJD\^G\^\[\]0;pwned\^G\^\[\[2J<U\+009B>/);
    const checkpointBytes = Buffer.byteLength(JSON.stringify(fullest));
    expect(checkpointBytes).toBeLessThanOrEqual(MAX_CHECKPOINT_BYTES);
    // What the same history weighed when each output kept 4,000 characters as they came.
    const before = outputs.reduce((sum, o) => {
      const seen = o.stderr ? `${o.stdout}\n[stderr]\n${o.stderr}` : o.stdout;
      return sum + jsonStringBytes(seen.length > 4_000 ? seen.slice(0, 2_000) + seen.slice(-2_000) : seen);
    }, 0);
    console.log(
      `hostile target: ${outputs.length} commands, ${calls.length} calls, ${lineBytes.length} lines, largest line ${Math.max(...lineBytes)} bytes, fullest checkpoint ${checkpointBytes} bytes (its outputs at 4,000 characters each: ${before} bytes)`,
    );
  }, 120_000);

  it('pauses a state an older proxy left too large with state_too_large naming the field, and continue goes on', async () => {
    fake.respond(flooder);
    // Level 0 logged in, then the history an older proxy kept: 70 outputs of 4,000 control characters.
    const start = await call({
      ...advanceBody('run_hostiletarget0000000002', { model: 'fake-model', endLevel: 0 }),
      checkpointPatches: true,
    });
    const base = start.reply.checkpoints[0]!;
    expect(base.next).toBe('plan');
    const history = Array.from({ length: 70 }, (_, i) => ({
      kind: 'command',
      callId: `call_${i}`,
      thinking: 'old',
      command: `old ${i}`,
      output: '\x1b\x01'.repeat(2_000),
      exitCode: 0,
    }));
    const swollen: Checkpoint = { ...base, state: { ...base.state, history, spent: 0 } };
    expect(Buffer.byteLength(JSON.stringify(swollen))).toBeGreaterThan(MAX_PROXY_LINE_BYTES);

    const body = {
      ...advanceBody('run_hostiletarget0000000002', { model: 'fake-model', endLevel: 0 }),
      checkpoint: swollen,
    };
    const paused = await playOut(body);
    const pause = paused.at(-1)!.reply;
    expect(Math.max(...paused.flatMap((c) => c.lineBytes))).toBeLessThanOrEqual(MAX_PROXY_LINE_BYTES);
    expect(pause.end).toMatchObject({
      outcome: 'interrupted',
      interrupt: {
        reason: 'state_too_large',
        lastError: expect.stringMatching(/history\[\d+\]\.output \([\d,]+ bytes, cut to [\d,]+\)/),
      },
    });
    expect(ofType(pause.events, 'error')).toEqual([
      expect.objectContaining({ code: 'state_too_large', message: pause.end.interrupt!.lastError }),
    ]);
    expect(pause.events.at(-1)).toMatchObject({ type: 'user_action_required', reason: 'state_too_large' });
    expect(Buffer.byteLength(JSON.stringify(pause.last))).toBeLessThanOrEqual(MAX_CHECKPOINT_BYTES / 2);

    const resumed = await playOut({ ...body, checkpoint: pause.last, resume: { action: 'continue' } });
    expect(resumed.at(-1)!.reply.end.outcome).toBe('completed');
    expect(ofType(eventsOf(resumed), 'password_found')).toHaveLength(1);
    expect(Math.max(...resumed.flatMap((c) => c.lineBytes))).toBeLessThanOrEqual(MAX_PROXY_LINE_BYTES);
  }, 120_000);
});
