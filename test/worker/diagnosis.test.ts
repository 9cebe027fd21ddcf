// GET /api/runs/:id/diagnosis: the troubleshooting card for a run's pause or bad end, from its log.
import { describe, expect, it } from 'vitest';
import { troubleCardSchema } from '../../schema/failures.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';

const diagnosis = async (id: string) => (await (await call(`/api/runs/${id}/diagnosis`)).json()) as { card: unknown };

describe('GET /api/runs/:id/diagnosis', () => {
  it('explains a pause with evidence from the log, and a stop; no card while the answer is being played', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const card = troubleCardSchema.parse((await diagnosis(run.id)).card);
    expect(card).toMatchObject({ failure: 'max_retries', category: 'agent', level: 0, what: 'no password after 3 attempts' });
    expect(card.evidence).toContainEqual(expect.objectContaining({ label: 'last command', text: '$ ls → exit 0' }));
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    expect(troubleCardSchema.parse((await diagnosis(run.id)).card)).toMatchObject({ failure: 'stopped', what: 'stopped by rest' });
  });

  it('has no card for a completed run, and 404 for an unknown one', async () => {
    const run = await createRun({ model: 'script-yield' });
    await waitForStatus(run.id, 'completed');
    expect(await diagnosis(run.id)).toEqual({ card: null });
    expect((await call('/api/runs/run_0000000000000000000000000/diagnosis')).status).toBe(404);
  });
});
