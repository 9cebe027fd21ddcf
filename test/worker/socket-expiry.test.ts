// A socket whose token expired while no event was sent (a paused run sends none), or whose role token was
// revoked (its sockets are not hunted down on every run), must not act: the message that would is refused,
// the socket closed, and nothing is applied.
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { CreatedToken } from '../../schema/access.ts';
import { TOKEN_SUBPROTOCOL_PREFIX, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { hashToken } from '../../worker/access/token-store.ts';
import { app } from '../../worker/app.ts';
import { createRun, waitForStatus } from './http.ts';

const API_TOKEN = 'a-long-api-token-for-expiry-tests';
const withToken = { ...env, API_TOKEN };
const admin = (path: string, init: RequestInit = {}) =>
  app.request(
    `http://127.0.0.1:8787${path}`,
    { ...init, headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' } },
    withToken,
  );

/** A socket on `runId` opened through the worker with `token`; its messages, and its close code once closed. */
async function socketWith(token: string, runId: string) {
  const response = await app.request(
    `http://127.0.0.1:8787/api/runs/${runId}/ws?since=0`,
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
  for (let i = 0; i < 200 && !seen.some((m) => m.type === 'snapshot'); i++) await new Promise((r) => setTimeout(r, 10));
  expect(seen.some((m) => m.type === 'snapshot')).toBe(true);
  return { ws, seen, closed };
}

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
  const socket = await socketWith(token, run.id);
  while (Date.now() <= expiresAt) await new Promise((r) => setTimeout(r, 100));
  socket.ws.send(JSON.stringify({ type: 'stop' }));
  expect(await socket.closed).toBe(1008);
  expect(socket.seen.find((m) => m.type === 'error')).toMatchObject({ code: 'token_expired' });
  expect((await waitForStatus(run.id, 'paused_for_user_action')).status).toBe('paused_for_user_action');
});

it('closes a revoked operator token socket at its next action instead of applying it', async () => {
  const run = await createRun({ model: 'script-pause' });
  await waitForStatus(run.id, 'paused_for_user_action');
  const made = await admin('/api/tokens', { method: 'POST', body: JSON.stringify({ role: 'operator' }) });
  const { id, token } = (await made.json()) as CreatedToken;
  const socket = await socketWith(token, run.id);
  expect((await admin(`/api/tokens/${id}`, { method: 'DELETE' })).status).toBe(200);
  socket.ws.send(JSON.stringify({ type: 'stop' }));
  expect(await socket.closed).toBe(1008);
  expect(socket.seen.find((m) => m.type === 'error')).toMatchObject({ code: 'token_revoked' });
  expect((await waitForStatus(run.id, 'paused_for_user_action')).status).toBe('paused_for_user_action');
});
