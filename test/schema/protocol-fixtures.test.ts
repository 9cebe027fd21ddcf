// Every event type has a valid sample that parses, and every malformed sample is rejected with a
// message that names the field at fault.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../schema/issues.ts';
import { RUN_EVENT_TYPES, runEventSchema } from '../../schema/protocol.ts';

const dir = join(import.meta.dirname, '../fixtures/events');
const read = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const validFiles = readdirSync(join(dir, 'valid')).filter((f) => f.endsWith('.json'));
const malformedFiles = readdirSync(join(dir, 'malformed')).filter((f) => f.endsWith('.json'));

describe('event fixtures', () => {
  it('has one valid sample for every event type', () => {
    expect(validFiles.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...RUN_EVENT_TYPES].sort());
  });

  it.each(validFiles)('parses valid/%s', (file) => {
    const raw = read(join(dir, 'valid', file));
    const parsed = runEventSchema.safeParse(raw);
    expect(parsed.success ? 'ok' : describeIssues(parsed.error)).toBe('ok');
    expect(parsed.data?.type).toBe(file.replace(/\.json$/, ''));
    // Nothing is dropped: a valid event survives the round trip whole.
    expect(parsed.data).toEqual(raw);
  });

  it.each(malformedFiles)('rejects malformed/%s, naming the field', (file) => {
    const fixture = read(join(dir, 'malformed', file)) as { expectIssueAt: string; event: unknown };
    const parsed = runEventSchema.safeParse(fixture.event);
    expect(parsed.success).toBe(false);
    const message = parsed.success ? '' : describeIssues(parsed.error);
    expect(message.startsWith(`${fixture.expectIssueAt}: `) || message.includes(`; ${fixture.expectIssueAt}: `)).toBe(
      true,
    );
    expect(message).not.toMatch(/\[object Object\]|undefined/);
  });

  it('ignores fields it does not know, so newer servers do not break older clients', () => {
    const raw = read(join(dir, 'valid', 'thinking.json')) as Record<string, unknown>;
    const parsed = runEventSchema.safeParse({ ...raw, addedInVersion2: 'x' });
    expect(parsed.success).toBe(true);
  });
});
