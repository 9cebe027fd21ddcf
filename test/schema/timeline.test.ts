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

describe('a pause on the timeline', () => {
  const failed = (ms: number, level: number, attempt: number) =>
    ev(ms, {
      type: 'attempt_failed',
      level,
      attempt,
      retryCount: attempt,
      maxRetries: 1,
      reason: 'budget_spent',
      lessons: [],
    });
  const asked = (ms: number, level: number, reason: 'max_retries' | 'password_required' = 'max_retries') =>
    ev(ms, { type: 'user_action_required', reason, level, retryCount: 1, maxRetries: 1, lastError: null, lessons: [] });

  it('is a wait span of its own, from question to answer, with the answer and who gave it; no attempt holds it', () => {
    seq = 0;
    const events = [
      ev(1000, { type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
      node(1005, 'connect', 0, 995, 10),
      call(1300, 0, 200),
      node(1305, 'plan', 0, 1095, 210),
      failed(1400, 0, 1),
      node(1410, 'pause', 0, 1405, 5, 'interrupted'),
      asked(1410, 0),
      // A person answers seven seconds later, with a hint, from the CLI.
      ev(8410, { type: 'user_action_resolved', action: 'continue', hint: 'look in the home dir', by: 'the CLI' }),
      node(8412, 'pause', 0, 8411, 1),
      ev(8420, { type: 'level_started', level: 0, attempt: 2, retryCount: 0 }),
      node(8425, 'connect', 0, 8415, 10),
      ev(8500, { type: 'level_complete', level: 0, nextLevel: 1, commands: 0, durationMs: 80 }),
    ];
    const [level] = timelineSchema.parse({ spans: buildTimeline(events) }).spans;
    expect(level!.children.map((s) => [s.kind, s.name, s.start, s.durationMs, s.status])).toEqual([
      ['attempt', 'attempt 1', at(995), 415, 'error'],
      ['wait', 'waiting for a person (max_retries)', at(1410), 7000, 'ok'],
      ['attempt', 'attempt 2', at(8415), 85, 'ok'],
    ]);
    const wait = level!.children[1]!;
    expect([wait.answer, wait.answeredBy, wait.reason]).toEqual(['hint', 'the CLI', 'max_retries']);
    expect(wait.children.map((n) => [n.kind, n.name, n.start])).toEqual([['node', 'pause', at(8411)]]);
    expect(level!.children[0]!.children.map((n) => n.name)).toEqual(['connect', 'plan', 'pause']);
    expect([level!.start, level!.durationMs, level!.promptTokens]).toEqual([at(995), 7505, 100]);
  });

  it('closes the attempt it interrupted and opens a resumed one for the work after the answer', () => {
    seq = 0;
    const events = [
      ev(1000, { type: 'level_started', level: 3, attempt: 1, retryCount: 0 }),
      node(1100, 'connect', 3, 990, 110),
      asked(1200, 3, 'password_required'),
      ev(5200, { type: 'user_action_resolved', action: 'password', by: 'this browser tab' }),
      node(5202, 'pause', 3, 5201, 1),
      call(5400, 3, 150),
      node(5405, 'plan', 3, 5240, 165),
    ];
    const [level] = buildTimeline(events);
    expect(level!.children.map((s) => [s.kind, s.name, s.start, s.durationMs, s.status])).toEqual([
      ['attempt', 'attempt 1', at(990), 210, 'interrupted'],
      ['wait', 'waiting for a person (password_required)', at(1200), 4000, 'ok'],
      ['attempt', 'attempt 1, resumed', at(5240), 165, 'open'],
    ]);
    expect([level!.children[1]!.answer, level!.children[1]!.answeredBy]).toEqual(['password', 'this browser tab']);
  });

  it('stays open, unanswered, while the run waits; a stop is an answer like any other', () => {
    seq = 0;
    const open = buildTimeline([
      ev(1000, { type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
      asked(1500, 0),
    ]);
    expect(open[0]!.children[1]).toMatchObject({ kind: 'wait', status: 'open', answer: null, answeredBy: null });
    const stopped = buildTimeline([
      ev(1000, { type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
      asked(1500, 0),
      ev(2500, { type: 'user_action_resolved', action: 'stop', by: 'an API client' }),
    ]);
    expect(stopped[0]!.children[1]).toMatchObject({ durationMs: 1000, answer: 'stop', answeredBy: 'an API client' });
  });
});
