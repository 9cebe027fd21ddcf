// Roles and share links: every registered route walked with admin, operator and viewer tokens, a share
// link on its own run and on another, a revoked and an expired link; tokens kept only as hashes; a share
// socket that watches and cannot act; a D1 failure that never lets a token in.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccessInfo, CreatedShare, CreatedToken } from '../../schema/access.ts';
import { TOKEN_SUBPROTOCOL_PREFIX, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import type { ServerMessage } from '../../schema/protocol.ts';
import { serverMessageSchema } from '../../schema/protocol.ts';
import { app } from '../../worker/app.ts';
import { PUBLIC_ROUTES } from '../../worker/auth.ts';
import { createRun, waitForStatus } from './http.ts';

const API_TOKEN = 'a-long-api-token-for-role-tests';
const withToken = { ...env, API_TOKEN };
const request = (path: string, init: RequestInit = {}, bindings: object = withToken) =>
  app.request(`http://127.0.0.1:8787${path}`, init, bindings);
const bearer = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
});
const postAs = (token: string, path: string, body: unknown) =>
  request(path, bearer(token, { method: 'POST', body: JSON.stringify(body) }));

/** The routes a share link may read on its own run, written out here apart from schema/access.ts. */
const SHARE_READS = new Set([
  'GET /api/runs/:id',
  'GET /api/runs/:id/events',
  'GET /api/runs/:id/ws',
  'GET /api/runs/:id/timeline',
  'GET /api/runs/:id/diagnosis',
  'GET /api/runs/:id/llm-calls/:callId',
  'GET /api/runs/:id/artifacts',
  'GET /api/runs/:id/terminal.cast',
  'GET /api/runs/:id/verification',
  'GET /api/runs/:id/report.html',
  'GET /api/runs/:id/forks',
  'GET /api/access',
]);

/** The weakest role each route needs, by the documented rule: token management is admin's, writes operator's. */
function needs(method: string, template: string): 'admin' | 'operator' | 'viewer' {
  if (template.startsWith('/api/tokens')) return 'admin';
  return method === 'GET' || method === 'HEAD' ? 'viewer' : 'operator';
}

/** Every method and route template the app registers; ALL is tried as GET, POST and DELETE. */
function registeredRoutes(): { method: string; template: string }[] {
  const seen = new Set<string>();
  for (const route of app.routes) {
    if (route.path.includes('*')) continue;
    const template = route.path.replace(/\/+$/, '') || '/';
    for (const method of route.method === 'ALL' ? ['GET', 'POST', 'DELETE'] : [route.method])
      seen.add(`${method} ${template}`);
  }
  return [...seen]
    .filter((key) => !PUBLIC_ROUTES.has(key))
    .map((key) => ({ method: key.split(' ')[0]!, template: key.slice(key.indexOf(' ') + 1) }));
}

const fill = (template: string, runId: string) =>
  template
    .replace(':id', runId)
    .replace(':callId', 'call_none')
    .replace(':tokenId', 'tok_none')
    .replace(':shareId', 'shr_none');

const send = (token: string, method: string, path: string) =>
  request(path, bearer(token, { method, body: method === 'GET' || method === 'HEAD' ? undefined : '{}' }));

let runA: string;
let runB: string;
const tokens: Record<'operator' | 'viewer', string> = { operator: '', viewer: '' };
let shareA: CreatedShare;
let revoked: CreatedShare;
let expired: CreatedShare;

beforeAll(async () => {
  runA = (await createRun({ model: 'script-pause' })).id;
  runB = (await createRun({ model: 'script-pause' })).id;
  await waitForStatus(runA, 'paused_for_user_action');
  for (const role of ['operator', 'viewer'] as const) {
    const made = await postAs(API_TOKEN, '/api/tokens', { role, label: `${role} for tests` });
    expect(made.status).toBe(201);
    tokens[role] = ((await made.json()) as CreatedToken).token;
  }
  const share = async (body: object) => {
    const made = await postAs(tokens.operator, `/api/runs/${runA}/shares`, body);
    expect(made.status).toBe(201);
    return (await made.json()) as CreatedShare;
  };
  shareA = await share({ label: 'for a reader', expiresInSeconds: 3600 });
  revoked = await share({});
  expired = await share({ expiresInSeconds: 60 });
  expect(
    (await request(`/api/runs/${runA}/shares/${revoked.id}`, bearer(tokens.operator, { method: 'DELETE' }))).status,
  ).toBe(200);
  await env.DB.prepare('UPDATE access_tokens SET expires_at = ? WHERE id = ?')
    .bind(Date.now() - 1000, expired.id)
    .run();
});

describe('every route, every role', () => {
  const routes = registeredRoutes();

  it('finds the routes it walks, token and share routes among them', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const route of [
      'POST /api/tokens',
      'DELETE /api/tokens/:tokenId',
      'POST /api/runs/:id/shares',
      'GET /api/access',
    ])
      expect(routes.map((r) => `${r.method} ${r.template}`)).toContain(route);
  });

  it('gives admin, operator and viewer exactly what their role allows, and 403 naming the role otherwise', async () => {
    for (const role of ['admin', 'operator', 'viewer'] as const) {
      const token = role === 'admin' ? API_TOKEN : tokens[role];
      const rank = { viewer: 0, operator: 1, admin: 2 };
      for (const { method, template } of routes) {
        const path = fill(template, runA);
        const response = await send(token, method, path);
        const needed = needs(method, template);
        const label = `${role} ${method} ${path}`;
        if (rank[role] >= rank[needed]) expect([401, 403], label).not.toContain(response.status);
        else {
          expect(response.status, label).toBe(403);
          expect(await response.json(), label).toMatchObject({
            error: { code: 'forbidden', message: expect.stringContaining(`needs the ${needed} role`) },
          });
        }
      }
    }
  });

  it('lets a share link read only its own run through the allowlist, and nothing of another run', async () => {
    for (const { method, template } of routes) {
      const own = await send(shareA.token, method, fill(template, runA));
      const label = `share ${method} ${template}`;
      if (SHARE_READS.has(`${method} ${template}`)) expect([401, 403], label).not.toContain(own.status);
      else {
        expect(own.status, label).toBe(403);
        expect(await own.json(), label).toMatchObject({
          error: { code: 'forbidden', message: expect.stringMatching(/a share link may only read its own run/) },
        });
      }
      if (template.includes(':id'))
        expect((await send(shareA.token, method, fill(template, runB))).status, label).toBe(403);
    }
  });

  it('answers 401 to a revoked and an expired link on every route, saying which', async () => {
    for (const { method, template } of routes) {
      const path = fill(template, runA);
      const gone = await send(revoked.token, method, path);
      expect(gone.status, `revoked ${method} ${path}`).toBe(401);
      expect(await gone.json()).toMatchObject({ error: { code: 'token_revoked' } });
      const late = await send(expired.token, method, path);
      expect(late.status, `expired ${method} ${path}`).toBe(401);
      expect(await late.json()).toMatchObject({ error: { code: 'token_expired' } });
    }
  });

  it('keeps the archive and cast with secrets for operators: a viewer and a share link get the redacted ones only', async () => {
    for (const suffix of ['artifacts', 'terminal.cast']) {
      const path = `/api/runs/${runA}/${suffix}?secrets=include`;
      expect((await request(path, bearer(tokens.viewer))).status, suffix).toBe(403);
      expect((await request(path, bearer(shareA.token))).status, suffix).toBe(403);
      expect((await request(path, bearer(tokens.operator))).status, suffix).toBe(200);
      expect((await request(`/api/runs/${runA}/${suffix}`, bearer(shareA.token))).status, suffix).toBe(200);
    }
  });
});

describe('tokens and links', () => {
  it('says who the caller is', async () => {
    const who = async (token: string) => (await (await request('/api/access', bearer(token))).json()) as AccessInfo;
    expect(await who(API_TOKEN)).toEqual({ role: 'admin', via: 'api_token' });
    expect(await who(tokens.viewer)).toMatchObject({ role: 'viewer', via: 'token', expiresAt: null });
    expect(await who(shareA.token)).toMatchObject({ role: 'share', runId: runA, expiresAt: shareA.expiresAt });
  });

  it('makes a link whose token rides in the fragment, and stores only its hash', async () => {
    expect(shareA.url).toBe(`http://127.0.0.1:8787/run?id=${runA}#share=${shareA.token}`);
    expect(shareA.token).toMatch(/^brs_[A-Za-z0-9_-]{43}$/);
    const rows = await env.DB.prepare('SELECT * FROM access_tokens').all<Record<string, unknown>>();
    const stored = JSON.stringify(rows.results);
    for (const token of [shareA.token, tokens.operator, tokens.viewer]) {
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(token.slice(4));
    }
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(shareA.token));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(rows.results.find((row) => row.id === shareA.id)).toMatchObject({ hash: hex, role: 'share', run_id: runA });
  });

  it('lists links and tokens without their text, and revokes a role token at once', async () => {
    const listed = await (await request(`/api/runs/${runA}/shares`, bearer(tokens.operator))).text();
    expect(listed).toContain(shareA.id);
    expect(listed).not.toContain(shareA.token);
    expect(listed).not.toMatch(/hash/);
    const made = (await (await postAs(API_TOKEN, '/api/tokens', { role: 'viewer' })).json()) as CreatedToken;
    expect((await request('/api/runs', bearer(made.token))).status).toBe(200);
    const all = await (await request('/api/tokens', bearer(API_TOKEN))).text();
    expect(all).toContain(made.id);
    expect(all).not.toContain(made.token);
    expect((await request(`/api/tokens/${made.id}`, bearer(API_TOKEN, { method: 'DELETE' }))).status).toBe(200);
    expect((await request('/api/runs', bearer(made.token))).status).toBe(401);
  });

  it('refuses bad bodies, unknown runs and unknown links with what to do', async () => {
    const share = await postAs(tokens.operator, '/api/tokens', { role: 'share' });
    expect(share.status).toBe(403);
    const bad = await postAs(API_TOKEN, '/api/tokens', { role: 'share' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { message: expect.stringMatching(/POST \/api\/runs\/:id\/shares/) },
    });
    expect((await postAs(tokens.operator, `/api/runs/${runA}/shares`, { expiresInSeconds: 5 })).status).toBe(400);
    const none = 'run_00000000000000000000';
    expect((await postAs(tokens.operator, `/api/runs/${none}/shares`, {})).status).toBe(404);
    // A link of run A is not revoked through run B.
    expect(
      (await request(`/api/runs/${runB}/shares/${shareA.id}`, bearer(tokens.operator, { method: 'DELETE' }))).status,
    ).toBe(404);
    expect((await request('/api/access', bearer(shareA.token))).status).toBe(200);
  });

  it('never lets a token in when D1 does not answer (503), while API_TOKEN still works', async () => {
    const down = {
      ...withToken,
      DB: {
        prepare() {
          throw new Error('D1 is down for this test');
        },
      },
    };
    const response = await request('/api/access', bearer(shareA.token), down);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'd1_unavailable' } });
    expect((await request('/api/access', bearer(API_TOKEN), down)).status).toBe(200);
  });

  it("tells health's reasons to a viewer, not to a share link", async () => {
    const reasons = async (token: string) =>
      ((await (await request('/api/health', bearer(token))).json()) as { components: { d1: { reason: string } } })
        .components.d1.reason;
    expect(await reasons(tokens.viewer)).toMatch(/query ok/);
    expect(await reasons(shareA.token)).toMatch(/^(ok|not ok; call with access for the reason)$/);
  });

  it('without API_TOKEN, judges a stored token from this machine by itself, and ignores any other bearer', async () => {
    const local = (token: string | null, init: RequestInit = {}) =>
      request('/api/access', token ? bearer(token, init) : init, env);
    expect(await (await local(null)).json()).toEqual({ role: 'admin', via: 'loopback' });
    expect(await (await local('not-a-stored-token')).json()).toEqual({ role: 'admin', via: 'loopback' });
    expect(await (await local(shareA.token)).json()).toMatchObject({ role: 'share', runId: runA });
    expect((await local(revoked.token)).status).toBe(401);
    const act = await request(
      `/api/runs/${runA}/actions`,
      bearer(shareA.token, { method: 'POST', body: '{"action":"pause"}' }),
      env,
    );
    expect(act.status).toBe(403);
  });

  it('sends Referrer-Policy: no-referrer with API answers, refusals included', async () => {
    expect((await request('/api/access', bearer(shareA.token))).headers.get('referrer-policy')).toBe('no-referrer');
    expect((await request('/api/runs')).headers.get('referrer-policy')).toBe('no-referrer');
  });
});

/** A socket opened through the worker with `token` as its subprotocol, its messages parsed and queued. */
async function socketWith(token: string, runId: string, bindings: object = withToken) {
  const response = await request(
    `/api/runs/${runId}/ws?since=0`,
    {
      headers: {
        upgrade: 'websocket',
        'sec-websocket-protocol': `${WS_SUBPROTOCOL}, ${TOKEN_SUBPROTOCOL_PREFIX}${token}`,
      },
    },
    bindings,
  );
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  const seen: ServerMessage[] = [];
  ws.addEventListener('message', (e) => {
    seen.push(serverMessageSchema.parse(JSON.parse(e.data as string)));
  });
  ws.accept();
  const until = async (test: (m: ServerMessage) => boolean) => {
    for (let i = 0; i < 200 && !seen.some(test); i++) await new Promise((r) => setTimeout(r, 10));
    return seen.find(test);
  };
  return { ws, seen, until, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

describe('a read-only socket', () => {
  it('watches the run but is refused every action, naming its role; an operator socket acts', async () => {
    const watcher = await socketWith(shareA.token, runA);
    expect(await watcher.until((m) => m.type === 'snapshot')).toMatchObject({ run: { id: runA } });
    for (const message of [
      { type: 'user_action', action: 'continue', hint: 'from a share link' },
      { type: 'pause' },
      { type: 'stop' },
      { type: 'terminal_input', data: 'ls\n' },
    ]) {
      const before = watcher.seen.length;
      watcher.send(message);
      const refusal = await watcher.until((m) => watcher.seen.indexOf(m) >= before && m.type === 'error');
      expect(refusal, message.type).toMatchObject({
        type: 'error',
        code: 'forbidden',
        message: expect.stringMatching(/share link \(role share\): it may watch the run but not act/),
      });
    }
    expect((await waitForStatus(runA, 'paused_for_user_action')).status).toBe('paused_for_user_action');
    // Without API_TOKEN, a token presented from this machine is judged by itself: still read-only.
    const local = await socketWith(tokens.viewer, runA, env);
    await local.until((m) => m.type === 'snapshot');
    local.send({ type: 'stop' });
    expect(await local.until((m) => m.type === 'error')).toMatchObject({
      message: expect.stringMatching(/role viewer/),
    });
    // The operator's answer goes through, and the share socket sees it live.
    const operator = await socketWith(tokens.operator, runA);
    await operator.until((m) => m.type === 'snapshot');
    operator.send({ type: 'user_action', action: 'continue', hint: 'from the operator' });
    const resolved = await watcher.until(
      (m) =>
        (m.type === 'event' && m.event.type === 'user_action_resolved') ||
        (m.type === 'events' && m.events.some((e) => e.type === 'user_action_resolved')),
    );
    expect(resolved).toBeDefined();
    for (const s of [watcher, local, operator]) s.ws.close(1000, 'done');
  });

  it('cannot claim a role with a header of its own', async () => {
    const response = await request(`/api/runs/${runB}/ws?since=0`, {
      headers: {
        upgrade: 'websocket',
        'x-bandit-runner-role': 'admin',
        'sec-websocket-protocol': `${WS_SUBPROTOCOL}, ${TOKEN_SUBPROTOCOL_PREFIX}${tokens.viewer}`,
      },
    });
    expect(response.status).toBe(101);
    const ws = response.webSocket!;
    const seen: string[] = [];
    ws.addEventListener('message', (e) => {
      seen.push(e.data as string);
    });
    ws.accept();
    ws.send(JSON.stringify({ type: 'stop' }));
    for (let i = 0; i < 200 && !seen.some((m) => m.includes('"type":"error"')); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(seen.find((m) => m.includes('"type":"error"'))).toMatch(/role viewer/);
    ws.close(1000, 'done');
  });
});

describe('a link that ends while its socket is open', () => {
  /** Resolves with the close code once the socket is closed by the server. */
  const closed = (ws: WebSocket) =>
    new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code), { once: true }));

  it('is closed at once when revoked, saying so', async () => {
    const link = (await (await postAs(tokens.operator, `/api/runs/${runB}/shares`, {})).json()) as CreatedShare;
    const watcher = await socketWith(link.token, runB);
    await watcher.until((m) => m.type === 'snapshot');
    const done = closed(watcher.ws);
    const revoke = await request(`/api/runs/${runB}/shares/${link.id}`, bearer(tokens.operator, { method: 'DELETE' }));
    expect(revoke.status).toBe(200);
    expect(await done).toBe(1008);
    expect(watcher.seen.find((m) => m.type === 'error')).toMatchObject({ code: 'token_revoked' });
  });

  it('is closed at the first event after it expires', async () => {
    // A link that expires in a moment (the API's shortest is a minute): its row made here, by its hash.
    const token = `brs_${'x'.repeat(43)}`;
    // Long enough to open the socket on a loaded machine; the test then waits until it has passed.
    const expiresAt = Date.now() + 4000;
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
    const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    await env.DB.prepare(
      'INSERT INTO access_tokens (id, role, run_id, label, hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
      .bind('shr_soon', 'share', runB, null, hash, Date.now(), expiresAt)
      .run();
    const watcher = await socketWith(token, runB);
    await watcher.until((m) => m.type === 'snapshot');
    const done = closed(watcher.ws);
    while (Date.now() <= expiresAt) await new Promise((r) => setTimeout(r, 100));
    expect((await postAs(tokens.operator, `/api/runs/${runB}/actions`, { action: 'stop' })).status).toBe(200);
    expect(await done).toBe(1008);
    expect(watcher.seen.find((m) => m.type === 'error')).toMatchObject({ code: 'token_expired' });
    expect((await request('/api/access', bearer(token))).status).toBe(401);
  });
});
