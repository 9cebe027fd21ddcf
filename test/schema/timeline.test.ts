// The timeline fold against a log whose spans are worked out by hand.
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../schema/protocol.ts';
import { runEventSchema } from '../../schema/protocol.ts';
import { buildTimeline, timelineSchema } from '../../schema/timeline.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 22, 0, 0, 0, ms)).toISOString();
let seq = 0;
const ev = (ms: number, body: RunEventBody): RunEvent =>
  runEventSchema.parse({ ...body, seq: ++seq, runId: 'run_timeline0000000000000000', ts: at(ms) });
const node = (
  ms: number,
  name: string,
  level: number,
  startMs: number,
  durationMs: number,
  status: 'ok' | 'interrupted' | 'error' = 'ok',
) => ev(ms, { type: 'node', name, level, startedAt: at(startMs), durationMs, status, error: null });
const call = (ms: number, level: number, latencyMs: number, errorClass: 'timeout' | null = null) =>
  ev(ms, {
    type: 'llm_call',
    callId: `llm_${ms}`,
    model: 'gpt-x',
    stage: 'plan',
    level,
    promptTokens: 100,
    completionTokens: 20,
    latencyMs,
    costUsd: 0.01,
    errorClass,
  });

describe('timeline', () => {
  it('nests level → attempt → node → model call and command, with times, statuses and sums worked out by hand', () => {
    seq = 0;
    const events = [
      ev(1000, { type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
      node(1005, 'connect', 0, 990, 15),
      call(1300, 0, 200),
      node(1305, 'plan', 0, 1090, 215),
      ev(1310, { type: 'command', level: 0, commandId: 'c1', command: 'cat readme' }),
      ev(1350, {
        type: 'output',
        level: 0,
        commandId: 'c1',
        stdout: 'x',
        stderr: '',
        exitCode: 0,
        durationMs: 40,
        truncated: false,
      }),
      node(1353, 'execute', 0, 1308, 45),
      ev(1400, { type: 'level_complete', level: 0, nextLevel: 1, commands: 1, durationMs: 410 }),
      // Level 1: a failed attempt (one timed-out call), then a second attempt still going.
      ev(1500, { type: 'level_started', level: 1, attempt: 1, retryCount: 0 }),
      call(1700, 1, 150, 'timeout'),
      node(1705, 'plan', 1, 1540, 165, 'ok'),
      ev(1800, {
        type: 'attempt_failed',
        level: 1,
        attempt: 1,
        retryCount: 1,
        maxRetries: 3,
        reason: 'budget_spent',
        lessons: [],
      }),
      ev(1810, { type: 'level_started', level: 1, attempt: 2, retryCount: 1 }),
    ];
    const spans = timelineSchema.parse({ spans: buildTimeline(events) }).spans;
    expect(
      spans.map((s) => [s.name, s.start, s.durationMs, s.status, s.promptTokens, s.completionTokens, s.costUsd]),
    ).toEqual([
      ['level 0', at(990), 410, 'ok', 100, 20, 0.01],
      ['level 1', at(1500), 310, 'open', 100, 20, 0.01],
    ]);
    const [attempt] = spans[0]!.children;
    expect([attempt!.name, attempt!.start, attempt!.durationMs, attempt!.status]).toEqual([
      'attempt 1',
      at(990),
      410,
      'ok',
    ]);
    expect(attempt!.children.map((n) => [n.name, n.start, n.durationMs])).toEqual([
      ['connect', at(990), 15],
      ['plan', at(1090), 215],
      ['execute', at(1308), 45],
    ]);
    expect(attempt!.children[1]!.children).toEqual([
      expect.objectContaining({
        kind: 'model_call',
        start: at(1100),
        durationMs: 200,
        status: 'ok',
        callId: 'llm_1300',
        promptTokens: 100,
      }),
    ]);
    expect(attempt!.children[2]!.children).toEqual([
      expect.objectContaining({
        kind: 'command',
        name: 'cat readme',
        start: at(1310),
        durationMs: 40,
        status: 'ok',
        exitCode: 0,
        seq: 5,
      }),
    ]);
    const [failed, going] = spans[1]!.children;
    expect([failed!.status, failed!.durationMs, failed!.children[0]!.children[0]!.errorClass]).toEqual([
      'error',
      300,
      'timeout',
    ]);
    expect([going!.name, going!.status, going!.start]).toEqual(['attempt 2', 'open', at(1810)]);
  });
});
