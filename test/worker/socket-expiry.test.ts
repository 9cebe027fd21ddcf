// A socket whose token expired while no event was sent (a paused run sends none) must not act: the first
// message it sends after its expiry closes it, and nothing is applied.
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { TOKEN_SUBPROTOCOL_PREFIX, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { hashToken } from '../../worker/access/token-store.ts';
import { app } from '../../worker/app.ts';
import { createRun, waitForStatus } from './http.ts';

const withToken = { ...env, API_TOKEN: 'a-long-api-token-for-expiry-tests' };

it('closes an expired operator socket at its next message instead of applying it', async () => {
  const run = await createRun({ model: 'script-pause' });
  await waitForStatus(run.id, 'paused_for_user_action');
  const token = `brt_${'e'.repeat(43)}`;
  // Long enough to open the socket on a loaded machine; the test then waits until it has passed.
  const expiresAt = Date.now() + 4000;
  await env.DB.prepare(
    'INSERT INTO access_tokens (id, role, run_id, label, hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
    .bind('tok_soon', 'operator', null, null, await hashToken(token), Date.now(), expiresAt)
    .run();
  const response = await app.request(
    `http://127.0.0.1:8787/api/runs/${run.id}/ws?since=0`,
    {
      headers: {
        upgrade: 'websocket',
        'sec-websocket-protocol': `${WS_SUBPROTOCOL}, ${TOKEN_SUBPROTOCOL_PREFIX}${token}`,
      },
    },
    withToken,
  );
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  const seen: { type: string; code?: string }[] = [];
  ws.addEventListener('message', (e) => {
    seen.push(JSON.parse(e.data as string));
  });
  const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code), { once: true }));
  ws.accept();
  while (Date.now() <= expiresAt) await new Promise((r) => setTimeout(r, 100));
  ws.send(JSON.stringify({ type: 'stop' }));
  expect(await closed).toBe(1008);
  expect(seen.find((m) => m.type === 'error')).toMatchObject({ code: 'token_expired' });
  expect((await waitForStatus(run.id, 'paused_for_user_action')).status).toBe('paused_for_user_action');
});
