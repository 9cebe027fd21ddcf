// GET /api/compare with real runs played by the real proxy against the practice range: two runs with
// the same config take the same path; a run that plays one level more parts from the shorter one where
// the shorter ended; a model that plays otherwise parts at its first command; an unknown id is a 404 naming it.
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../schema/api.ts';
import { runComparisonSchema } from '../../schema/run-compare.ts';
import type { RunComparison } from '../../schema/run-compare.ts';
import { call, createRun, eventsOf, waitForStatus } from './http.ts';

const compare = async (a: string, b: string): Promise<RunComparison> => {
  const response = await call(`/api/compare?a=${a}&b=${b}`);
  expect(response.status).toBe(200);
  return runComparisonSchema.parse(await response.json());
};

async function finished(config: Record<string, unknown>): Promise<string> {
  const run = await createRun({ maxRetries: 1, finalAttempt: false, ...config });
  await waitForStatus(run.id, 'completed', 30_000);
  return run.id;
}

describe('GET /api/compare', () => {
  it('compares two baseline runs: the same path, and a longer run parts where the shorter ended', async () => {
    const [one, two, longer] = await Promise.all([
      finished({ model: 'baseline', endLevel: 1 }),
      finished({ model: 'baseline', endLevel: 1 }),
      finished({ model: 'baseline', endLevel: 2 }),
    ]);
    const same = await compare(one, two);
    expect(same.firstDifference).toBeNull();
    expect(same.levels.map((l) => [l.level, l.a?.outcome, l.b?.outcome, l.same])).toEqual([
      [0, 'solved_alone', 'solved_alone', true],
      [1, 'solved_alone', 'solved_alone', true],
    ]);
    expect([same.a.id, same.b.id]).toEqual([one, two]);
    expect(same.totals.a.levelsSolved).toBe(2);

    const parted = await compare(longer, one);
    expect(parted.levels.map((l) => [l.level, l.same])).toEqual([
      [0, true],
      [1, true],
      [2, false],
    ]);
    expect(parted.levels[2]!.b).toBeNull();
    expect(parted.firstDifference).toMatchObject({ level: 2, index: 0, a: { kind: 'command' }, b: null });
    // Each level's link is its level_started in that run's own log.
    const events = await eventsOf(longer);
    const started2 = events.find((e) => e.type === 'level_started' && e.level === 2)!;
    expect(parted.levels[2]!.firstSeq).toEqual({ a: started2.seq, b: null });
    const diffSeq = parted.firstDifference!.a!.seq;
    expect(events.find((e) => e.seq === diffSeq)).toMatchObject({ type: 'command', level: 2 });
  });

  it('finds a model that reads the readme as the baseline does on the same path, with its own spend', async () => {
    const [base, model] = await Promise.all([
      finished({ model: 'baseline', endLevel: 0 }),
      finished({ model: 'alpha/solver', endLevel: 0, budget: 4 }),
    ]);
    const c = await compare(base, model);
    expect([c.a.model, c.b.model]).toEqual(['baseline', 'alpha/solver']);
    // The same command to the same outcome: the same path, though one asked a model and the other did not.
    expect(c.firstDifference).toBeNull();
    expect(c.levels[0]).toMatchObject({ same: true, a: { outcome: 'solved_alone' }, b: { outcome: 'solved_alone' } });
    expect(c.levels[0]!.a!.promptTokens).toBe(0);
    expect(c.levels[0]!.b!.promptTokens).toBeGreaterThan(0);
  });

  it('parts a model that never finds the password from the baseline at its first command', async () => {
    const base = await finished({ model: 'baseline', endLevel: 0 });
    const lost = await createRun({
      model: 'fake-model',
      endLevel: 0,
      budget: 2,
      maxRetries: 1,
      finalAttempt: false,
      onPause: 'stop',
    });
    await waitForStatus(lost.id, 'stopped', 30_000);
    const c = await compare(base, lost.id);
    expect(c.levels[0]).toMatchObject({ same: false, a: { outcome: 'solved_alone' }, b: { outcome: 'not_solved' } });
    expect(c.firstDifference).toMatchObject({
      level: 0,
      index: 0,
      a: { kind: 'command', text: 'cat readme' },
      b: { kind: 'command', text: expect.stringMatching(/^ls -la; echo turn \d+$/) },
    });
    expect(c.totals.b).toMatchObject({ levelsSolved: 0, commands: 2 });
  });

  it('compares a run with itself as identical', async () => {
    const run = await finished({ model: 'baseline', endLevel: 0 });
    const c = await compare(run, run);
    expect(c.firstDifference).toBeNull();
    expect(c.levels.every((l) => l.same)).toBe(true);
  });

  it('answers 404 naming the id no run has, and 400 for a missing or malformed id', async () => {
    const run = await createRun({ model: 'baseline', endLevel: 0 });
    const unknown = 'run_0zzzzzzzzzzzzzzzzzzzzzzzzz';
    const missing = await call(`/api/compare?a=${run.id}&b=${unknown}`);
    expect(missing.status).toBe(404);
    const error = apiErrorSchema.parse(await missing.json()).error;
    expect(error).toMatchObject({ code: 'run_not_found' });
    expect(error.message).toContain(unknown);
    const bad = await call(`/api/compare?a=${run.id}`);
    expect(bad.status).toBe(400);
    expect(apiErrorSchema.parse(await bad.json()).error.issues).toEqual([expect.stringMatching(/^b: /)]);
  });
});
