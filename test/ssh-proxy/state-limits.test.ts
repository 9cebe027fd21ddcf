// What target and model text may do to the agent's state and the proxy's lines: for any bytes at all
// (control bytes, NULs, invalid UTF-8, emoji, megabyte lines) the state's text is visible and within
// its cap in serialised bytes, every line fits the worker's limit, and a checkpoint that would not fit
// is cut and turned into a state_too_large pause that names the field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Checkpoint, PendingAction, ProxyLine } from '../../schema/protocol.ts';
import { MAX_PROXY_LINE_BYTES } from '../../schema/protocol.ts';
import type { BanditState, Turn } from '../../ssh-proxy/agent/bandit-state.ts';
import { banditStateSchema, initialBanditState } from '../../ssh-proxy/agent/bandit-state.ts';
import { historyOutput } from '../../ssh-proxy/agent/nodes/bandit-deps.ts';
import { fitCheckpoint, MAX_CHECKPOINT_BYTES } from '../../ssh-proxy/agent/state-limit.ts';
import { STATE_TEXT_BYTES, stateText, visibleText } from '../../ssh-proxy/agent/state-text.ts';
import type { GraphCheckpoint } from '../../ssh-proxy/engine/types.ts';
import { END } from '../../ssh-proxy/engine/types.ts';
import { capSerialised, fitJson, jsonBytes, jsonStringBytes } from '../../ssh-proxy/json-fit.ts';
import { lineText } from '../../ssh-proxy/line-fit.ts';
import { runConfigSchema } from '../../schema/run.ts';

const serialised = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
/** Anything a reader could act on: C0 but tab and newline, DEL, C1, bidi controls, lone surrogates. */
const UNSAFE =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Bytes a hostile target prints: random bytes, escape sequences, NULs, invalid UTF-8 and emoji, mixed. */
const hostileBytes = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 600 }),
      fc.constantFrom(
        ...[
          '\x1b]52;c;QUJD\x07',
          '\x1b]0;title\x07',
          '\x1b[2J\x1b[H',
          '\x1bP+q\x1b\\',
          '\u009b31m',
          '\u202e',
          '🎉',
          'é世',
        ].map((s) => Buffer.from(s)),
      ),
      fc.constantFrom(
        Buffer.from([0]),
        Buffer.from([0xff, 0xfe]),
        Buffer.from([0xc3]),
        Buffer.from([0xed, 0xa0, 0x80]),
      ),
      fc.string({ unit: 'grapheme', maxLength: 80 }).map((s) => Buffer.from(s)),
    ),
    { maxLength: 40 },
  )
  .map((parts) => Buffer.concat(parts));

describe('state text', () => {
  it('keeps any output a target prints within its serialised cap, with nothing a reader could act on', () => {
    fc.assert(
      fc.property(hostileBytes, hostileBytes, (out, err) => {
        const text = historyOutput({
          stdout: out.toString('utf8'),
          stderr: err.toString('utf8'),
          bytes: { stdout: out.length, stderr: err.length },
        });
        expect(serialised(text)).toBeLessThanOrEqual(STATE_TEXT_BYTES.output);
        expect(text).not.toMatch(UNSAFE);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps megabyte lines of control bytes, NULs and binary within the cap, showing what they were', () => {
    const escapes = Buffer.from('\x1b[31mred\x1b[0m \x1b]52;c;QUJD\x07\u009b2J'.repeat(40_000));
    const binary = Buffer.from(Array.from({ length: 1024 * 1024 }, (_, i) => (i * 7919) % 256));
    const oneLine = Buffer.from(`${'🎉é"\\'.repeat(150_000)}\n`);
    for (const bytes of [escapes, binary, oneLine]) {
      const text = historyOutput({
        stdout: bytes.toString('utf8'),
        stderr: '',
        bytes: { stdout: bytes.length, stderr: 0 },
      });
      expect(serialised(text)).toBeLessThanOrEqual(STATE_TEXT_BYTES.output);
      expect(text).not.toMatch(UNSAFE);
    }
    expect(historyOutput({ stdout: escapes.toString('utf8'), stderr: '' })).toMatch(
      /^\^\[\[31mred\^\[\[0m \^\[\]52;c;QUJD\^G<U\+009B>2J\^\[\[31m/,
    );
    expect(
      historyOutput({ stdout: binary.toString('utf8'), stderr: '', bytes: { stdout: binary.length, stderr: 0 } }),
    ).toMatch(/^<binary, 1,048,576 bytes: \\x00\\x\?\?/);
    expect(historyOutput({ stdout: oneLine.toString('utf8'), stderr: '' })).toMatch(/bytes cut\] …\n/);
  });

  it('caps any string, lone surrogates included, at any cap, never splitting a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), fc.integer({ min: 64, max: 5000 }), (text, cap) => {
        const capped = capSerialised(text, cap);
        expect(serialised(capped)).toBeLessThanOrEqual(cap);
        expect(jsonStringBytes(capped)).toBe(serialised(capped));
        expect(serialised(stateText(text, cap))).toBeLessThanOrEqual(cap);
        if (serialised(text) <= cap) expect(capped).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps printable text, non-ASCII letters and emoji as they are, and shows controls visibly', () => {
    const printable = 'héllo 世界 🎉 naïve ß\n\tcolumns "quoted" \\ back';
    expect(stateText(printable, STATE_TEXT_BYTES.output)).toBe(printable);
    expect(visibleText('\x1b[31mred\x1b[0m\x00\x07\x7f\r\n\r')).toBe('^[[31mred^[[0m^@^G^?\n^M');
    expect(visibleText('\u009b2J a\u202eb \ud800')).toBe('<U+009B>2J a<U+202E>b \ufffd');
  });
});

describe('sizes and cuts', () => {
  it('measures any JSON value exactly as JSON.stringify writes it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonBytes(value)).toBe(serialised(value));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(jsonStringBytes(text)).toBe(serialised(text));
      }),
      { numRuns: 300 },
    );
  });

  it('cuts the largest strings until a value fits, names them, and leaves the other parts as they were', () => {
    const small = { kind: 'command', output: 'ok' };
    const value = {
      history: [small, { kind: 'command', output: '\x00'.repeat(100_000) }],
      lessons: ['x'.repeat(3_000)],
    };
    const { value: fitted, cuts } = fitJson(value, 20_000);
    expect(serialised(fitted)).toBeLessThanOrEqual(20_000);
    expect(cuts.map((c) => c.path)).toEqual(['history[1].output']);
    expect(cuts[0]).toMatchObject({ bytes: 600_002 });
    expect(fitted.history[0]).toBe(small);
    expect(fitted.lessons).toBe(value.lessons);
  });
});

const config = runConfigSchema.parse({ model: 'fake-model', budget: 100 });
const turn = (output: string, i: number): Turn => ({
  kind: 'command',
  callId: `call_${i}`,
  thinking: 'look',
  command: `cat file${i}`,
  output,
  exitCode: 0,
});
/** A state as proxies before the caps left it: 70 outputs of 4,000 control characters (~24 KB of JSON each). */
function swollenState(): BanditState {
  const history = Array.from({ length: 70 }, (_, i) => turn('\x1b\x01'.repeat(2_000), i));
  return banditStateSchema.parse({ ...initialBanditState(config, 0), attempt: 1, history });
}
const checkpointOf = (
  state: BanditState,
  next: string,
  interrupt?: PendingAction,
): GraphCheckpoint<BanditState, PendingAction> => ({
  version: 1,
  step: 9,
  next,
  state,
  createdAt: '2026-11-24T00:00:00.000Z',
  ...(interrupt ? { interrupt } : {}),
});

describe('a checkpoint too large for its line', () => {
  it('keeps a checkpoint that fits as the very same object', () => {
    const checkpoint = checkpointOf(banditStateSchema.parse(initialBanditState(config, 0)), 'plan');
    expect(fitCheckpoint(checkpoint, { emit: () => {} }, MAX_CHECKPOINT_BYTES)).toBe(checkpoint);
  });

  it('is cut to fit, with room to go on, and pauses with state_too_large naming the fields', () => {
    const emitted: unknown[] = [];
    const before = checkpointOf(swollenState(), 'execute');
    expect(serialised(before)).toBeGreaterThan(MAX_PROXY_LINE_BYTES);
    const after = fitCheckpoint(before, { emit: (e) => emitted.push(e) }, MAX_CHECKPOINT_BYTES);
    expect(serialised(after)).toBeLessThanOrEqual(MAX_CHECKPOINT_BYTES / 2);
    expect(after.next).toBe('pause');
    expect(after.state.fault).toMatchObject({
      reason: 'state_too_large',
      resumeAt: 'plan',
      message: expect.stringMatching(
        /history\[\d+\]\.output \([\d,]+ bytes, cut to [\d,]+\).* and \d+ more; continue goes on/,
      ),
    });
    expect(emitted).toEqual([
      { type: 'error', code: 'state_too_large', message: after.state.fault!.message, level: 0 },
    ]);
    expect(banditStateSchema.safeParse(after.state).success).toBe(true);
  });

  it('keeps a pause a pause, with state_too_large as its reason, and lets a finished run end', () => {
    const interrupt: PendingAction = {
      reason: 'max_retries',
      level: 0,
      retryCount: 3,
      maxRetries: 3,
      lastError: 'x'.repeat(600_000),
      lessons: [],
    };
    const state = {
      ...swollenState(),
      fault: { reason: 'max_retries' as const, message: null, resumeAt: 'connect' as const },
    };
    const paused = fitCheckpoint(checkpointOf(state, 'pause', interrupt), { emit: () => {} }, MAX_CHECKPOINT_BYTES);
    expect(serialised(paused)).toBeLessThanOrEqual(MAX_CHECKPOINT_BYTES);
    expect(paused.next).toBe('pause');
    expect(paused.interrupt).toMatchObject({
      reason: 'state_too_large',
      lastError: expect.stringMatching(/interrupt\.lastError|history\[/),
    });
    expect(paused.state.fault).toMatchObject({ reason: 'state_too_large', resumeAt: 'connect' });
    const ended = fitCheckpoint(checkpointOf(swollenState(), END), { emit: () => {} }, MAX_CHECKPOINT_BYTES);
    expect(ended.next).toBe(END);
    expect(serialised(ended)).toBeLessThanOrEqual(MAX_CHECKPOINT_BYTES);
  });
});

describe('proxy lines', () => {
  const plain = (line: ProxyLine) => JSON.stringify(line);
  const ts = '2026-11-24T00:00:00.000Z';

  it('cuts an event, a live line and an end line over the limit to fit, keeping what it can', () => {
    const flood = '\x00\x1b'.repeat(600_000);
    const output: ProxyLine = {
      type: 'event',
      event: {
        type: 'output',
        level: 0,
        commandId: 'cmd_1',
        stdout: `start${flood}`,
        stderr: 'fine',
        exitCode: 0,
        durationMs: 1,
        truncated: false,
        ts,
      },
    };
    const lines: ProxyLine[] = [
      output,
      { type: 'event', event: { type: 'thinking', level: 0, text: '🎉'.repeat(1_000_000), ts } },
      { type: 'live', level: 0, stage: 'plan', text: flood },
      { type: 'end', outcome: 'failed', error: flood },
    ];
    for (const line of lines) {
      const fitted = lineText(line, plain);
      expect(fitted.ok).toBe(true);
      if (!fitted.ok) continue;
      expect(Buffer.byteLength(fitted.text)).toBeLessThanOrEqual(MAX_PROXY_LINE_BYTES);
      expect(JSON.parse(fitted.text).type).toBe(line.type);
    }
    const event = JSON.parse((lineText(output, plain) as { text: string }).text).event;
    expect(event).toMatchObject({
      type: 'output',
      truncated: true,
      stderr: 'fine',
      stdout: expect.stringMatching(/^start\x00\x1b[\s\S]*bytes cut/),
    });
  });

  it('never sends a checkpoint over the limit: it says state_too_large instead', () => {
    const checkpoint = checkpointOf(swollenState(), 'plan');
    const fitted = lineText({ type: 'checkpoint', checkpoint: checkpoint as Checkpoint }, plain);
    expect(fitted).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^state_too_large: a checkpoint line of \d+ bytes \(over the 1048576-byte line limit\) was not sent/,
      ),
    });
  });
});
