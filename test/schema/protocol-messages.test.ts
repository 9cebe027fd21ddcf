// Client messages, proxy lines and run config: strict where people type, tolerant where servers evolve.
import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../schema/issues.ts';
import { clientMessageSchema, proxyLineSchema, proxyRequestSchema } from '../../schema/protocol.ts';
import { levelRangeProblem } from '../../schema/levels.ts';
import { runActionSchema, runConfigSchema } from '../../schema/run.ts';

const issues = (result: { success: boolean; error?: Parameters<typeof describeIssues>[0] }) =>
  result.success || !result.error ? '' : describeIssues(result.error);

describe('client messages', () => {
  it('accepts every message the protocol names', () => {
    for (const message of [
      { type: 'hello' },
      { type: 'hello', since: 42 },
      { type: 'user_action', action: 'continue' },
      { type: 'user_action', action: 'continue', hint: 'look for hidden files' },
      { type: 'user_action', action: 'password', value: 'abc' },
      { type: 'user_action', action: 'stop' },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'stop' },
      { type: 'ping' },
    ]) {
      expect(issues(clientMessageSchema.safeParse(message))).toBe('');
    }
  });

  it('refuses a password action without a value, and says so', () => {
    expect(issues(clientMessageSchema.safeParse({ type: 'user_action', action: 'password' }))).toMatch(/^value: /);
  });

  it('refuses unknown fields and empty hints', () => {
    expect(issues(clientMessageSchema.safeParse({ type: 'ping', typo: 1 }))).toMatch(/typo/);
    expect(issues(clientMessageSchema.safeParse({ type: 'user_action', action: 'continue', hint: '   ' }))).toMatch(
      /^hint: must not be empty/,
    );
  });
});

describe('run config and actions', () => {
  it('fills every default', () => {
    expect(runConfigSchema.parse({})).toEqual({
      target: 'practice',
      startLevel: 0,
      endLevel: 20,
      model: 'baseline',
      maxRetries: 3,
      budget: 15,
    });
  });

  it('bounds every number and names the field', () => {
    expect(issues(runConfigSchema.safeParse({ budget: 0 }))).toBe('budget: must be at least 1');
    expect(issues(runConfigSchema.safeParse({ maxRetries: 2.5 }))).toBe('maxRetries: must be a whole number');
    expect(issues(runConfigSchema.safeParse({ endLevel: 99 }))).toBe('endLevel: must be at most 32');
    // The range serves Bandit's levels 0-32 like the real server, so every target takes 21-32 now.
    expect(runConfigSchema.safeParse({ target: 'practice', startLevel: 21, endLevel: 32 }).success).toBe(true);
    expect(levelRangeProblem('practice', 0, 33)).toBe('practice has levels 0-32; 0-33 is outside them');
    expect(issues(runConfigSchema.safeParse({ target: 'hackthebox' }))).toMatch(/^target: /);
    expect(issues(runConfigSchema.safeParse({ model: 'gpt 4; rm -rf' }))).toMatch(/^model: may hold/);
  });

  it('takes the same actions over REST as over the socket', () => {
    expect(runActionSchema.parse({ action: 'password', value: ' secret ' })).toEqual({
      action: 'password',
      value: 'secret',
    });
    expect(issues(runActionSchema.safeParse({ action: 'dance' }))).toMatch(/^action: /);
  });
});

describe('proxy lines', () => {
  it('accepts an event line without seq (the Durable Object numbers events)', () => {
    const line = { type: 'event', event: { type: 'thinking', ts: '2026-11-21T12:00:00.000Z', level: 0, text: 'hm' } };
    expect(issues(proxyLineSchema.safeParse(line))).toBe('');
  });

  it('accepts an interrupted end carrying the pause', () => {
    const line = {
      type: 'end',
      outcome: 'interrupted',
      interrupt: { reason: 'max_retries', level: 3, retryCount: 3, maxRetries: 3, lastError: null, lessons: [] },
    };
    expect(issues(proxyLineSchema.safeParse(line))).toBe('');
  });

  it('refuses an unknown outcome and a request without config', () => {
    expect(issues(proxyLineSchema.safeParse({ type: 'end', outcome: 'exploded' }))).toMatch(/^outcome: /);
    expect(issues(proxyRequestSchema.safeParse({ runId: 'run_mhz1k2a0b3c4d5e6f7g8h9i0j', checkpoint: null }))).toMatch(
      /^config: /,
    );
  });
});
