// The baseline's pace (config.paceMs) over HTTP against the real practice range: its thinking is
// written out live before it acts, each model call takes the think time (a property of the event
// log's timestamps, not of the test's clock), and the paced run still solves levels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyEvent, ProxyLine } from '../../schema/protocol.ts';
import { MAX_PACE_MS, runConfigSchema } from '../../schema/run.ts';
import { advance, advanceBody } from '../support/advance-client.ts';
import type { AdvanceReply } from '../support/advance-client.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

const PACE_MS = 250;
let services: LoopbackServices;
let paced: AdvanceReply;
let unpaced: AdvanceReply;
beforeAll(async () => {
  services = await startLoopbackServices({ PROXY_SLICE_MS: '60000' });
  paced = await advance(services, advanceBody('run_pacedbaseline000000000', { endLevel: 2, paceMs: PACE_MS }));
  unpaced = await advance(services, advanceBody('run_unpacedbaseline0000000', { endLevel: 2 }));
});
afterAll(() => services.close());

const ofType = <T extends ProxyEvent['type']>(events: ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);
const ms = (e: ProxyEvent) => Date.parse(e.ts);

/** For each thinking event: how long after the step before it (the event before its own llm_call) it was stamped. */
function thinkingGaps(events: ProxyEvent[]): number[] {
  return events.flatMap((e, i) => {
    if (e.type !== 'thinking') return [];
    const before = events.slice(0, i).findLast((p) => p.type !== 'llm_call');
    return before ? [ms(e) - ms(before)] : [];
  });
}

describe('a paced baseline run', () => {
  it('still solves its levels and ends', () => {
    expect(ofType(paced.events, 'level_complete').map((e) => e.level)).toEqual([0, 1, 2]);
    expect(paced.end).toMatchObject({ type: 'end', outcome: 'completed' });
    // The same moves as at full speed: the pace changes when, never what.
    const commands = (r: AdvanceReply) => ofType(r.events, 'command').map((e) => e.command);
    expect(commands(paced)).toEqual(commands(unpaced));
  });

  it('stamps each thinking at least the pace after the step before it, and its command after it', () => {
    const gaps = thinkingGaps(paced.events);
    const steps = ofType(paced.events, 'command').length;
    console.log(
      `paced ${PACE_MS} ms: ${gaps.length} thinking events, gaps ${Math.min(...gaps)}-${Math.max(...gaps)} ms`,
    );
    expect(gaps.length).toBeGreaterThanOrEqual(steps);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(PACE_MS);
    // The run as a whole spans at least steps × pace in its own log.
    expect(ms(paced.events.at(-1)!) - ms(paced.events[0]!)).toBeGreaterThanOrEqual(steps * PACE_MS);
    // Each command follows the thinking that chose it.
    paced.events.forEach((e, i) => {
      if (e.type === 'command') expect(paced.events.slice(0, i).findLast((p) => p.type === 'thinking')).toBeTruthy();
    });
    // Each model call reports the think time as its latency.
    for (const call of ofType(paced.events, 'llm_call')) expect(call.latencyMs).toBeGreaterThanOrEqual(PACE_MS - 1);
  });

  it('writes the thinking out live, piece by piece, before the thinking event', () => {
    const thinking = ofType(paced.events, 'thinking')[0]!;
    const before = paced.lines.slice(
      0,
      paced.lines.findIndex((l) => l.type === 'event' && l.event === thinking),
    );
    const live = before.filter((l): l is Extract<ProxyLine, { type: 'live' }> => l.type === 'live');
    expect(live.length).toBeGreaterThan(1);
    expect(live.map((l) => l.text).join('')).toBe(thinking.text);
  });

  it('an unpaced run answers at once: no live lines and thinking stamped with the step before it', () => {
    expect(unpaced.lines.filter((l) => l.type === 'live')).toEqual([]);
    expect(Math.min(...thinkingGaps(unpaced.events))).toBeLessThan(PACE_MS);
  });
});

describe('paceMs in the run config', () => {
  it('is optional, a whole number from 0 to the maximum, and for the baseline only', () => {
    expect(runConfigSchema.parse({}).paceMs).toBeUndefined();
    expect(runConfigSchema.parse({ paceMs: 700 }).paceMs).toBe(700);
    const refused = (input: object) => runConfigSchema.safeParse(input).error?.issues[0];
    expect(refused({ paceMs: MAX_PACE_MS + 1 })).toMatchObject({ path: ['paceMs'], message: /at most 5000 ms/ });
    expect(refused({ paceMs: -1 })).toMatchObject({ path: ['paceMs'] });
    expect(refused({ paceMs: 1.5 })).toMatchObject({ path: ['paceMs'], message: /whole number/ });
    expect(refused({ paceMs: 700, model: 'openai/gpt-4o' })).toMatchObject({
      path: ['paceMs'],
      message: /baseline.*drop it/,
    });
    expect(runConfigSchema.safeParse({ paceMs: 0, model: 'openai/gpt-4o' }).success).toBe(true);
  });
});
