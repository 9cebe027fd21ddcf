// GET /api/runs/:id/events pages by bytes as the socket replay does: a page stops near 512 KiB even
// under its event limit, says where to go on, and the pages join with no gap and no repeat.
import { describe, expect, it } from 'vitest';
import { runEventSchema } from '../../schema/protocol.ts';
import { call, createRun, waitForStatus } from './http.ts';

type Page = { events: unknown[]; lastSeq: number; nextSince: number | null };
const page = async (id: string, since: number) => {
  const response = await call(`/api/runs/${id}/events?since=${since}&limit=1000`);
  expect(response.status).toBe(200);
  return { bytes: Number((await response.clone().arrayBuffer()).byteLength), body: (await response.json()) as Page };
};

describe('event pages', () => {
  it('stops a page near 512 KiB and joins the pages with no gap', async () => {
    const run = await createRun({ model: 'script-big' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const seqs: number[] = [];
    let since = 0;
    let pages = 0;
    for (;;) {
      const { bytes, body } = await page(run.id, since);
      pages += 1;
      expect(bytes).toBeLessThan(600 * 1024);
      for (const event of body.events) seqs.push(runEventSchema.parse(event).seq);
      if (body.nextSince === null) {
        expect(seqs.at(-1)).toBe(body.lastSeq);
        break;
      }
      since = body.nextSince;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(seqs.length).toBeGreaterThan(40);
  });

  it('answers an empty page with nextSince null once caught up', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const { body: all } = await page(run.id, 0);
    const { body: after } = await page(run.id, all.lastSeq);
    expect(after).toEqual({ events: [], lastSeq: all.lastSeq, nextSince: null });
  });
});
