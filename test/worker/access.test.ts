// Who may use the API: deny by default on every registered route, the token (any case of "Bearer"),
// and without a token only this machine's own pages: loopback IP and Host, own Origin, JSON writes.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { healthSchema } from '../../schema/api.ts';
import { WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { app } from '../../worker/app.ts';
import { PUBLIC_ROUTES } from '../../worker/auth.ts';
import { readSettings } from '../../worker/env.ts';
import { createRun } from './http.ts';

const TOKEN = 'a-long-api-token-for-tests';
const withToken = { ...env, API_TOKEN: TOKEN };
const request = (path: string, init: RequestInit = {}, bindings: object = withToken) =>
  app.request(`http://127.0.0.1:8787${path}`, init, bindings);
const RUN = 'run_00000000000000000000';

/** Every method and path the app registers, with :id filled in; ALL is tried as GET and POST. */
function registeredRoutes(): { method: string; path: string }[] {
  const seen = new Set<string>();
  for (const route of app.routes) {
    if (route.path.includes('*')) continue; // middleware, not a route
    const path = route.path.replace(':id', RUN).replace(/\/+$/, '') || '/';
    for (const method of route.method === 'ALL' ? ['GET', 'POST'] : [route.method]) seen.add(`${method} ${path}`);
  }
  return [...seen].map((key) => ({ method: key.split(' ')[0]!, path: key.slice(key.indexOf(' ') + 1) }));
}

describe('deny by default', () => {
  const routes = registeredRoutes();

  it('keeps the public list to health alone, and finds the routes it walks (so the walk cannot pass on an empty list)', () => {
    expect([...PUBLIC_ROUTES].sort()).toEqual(['GET /api/health', 'HEAD /api/health']);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    expect(routes).toContainEqual({ method: 'POST', path: '/api/runs' });
    expect(routes).toContainEqual({ method: 'GET', path: `/api/runs/${RUN}/events` });
  });

  it('with API_TOKEN, every registered route but the public ones answers 401 without it', async () => {
    for (const { method, path } of routes) {
      const response = await request(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      if (PUBLIC_ROUTES.has(`${method} ${path}`)) expect(response.status, `${method} ${path}`).not.toBe(401);
      else expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it('without API_TOKEN, every registered route but the public ones refuses a remote client with 403', async () => {
    for (const { method, path } of routes) {
      const response = await request(
        path,
        {
          method,
          headers: { 'cf-connecting-ip': '203.0.113.7', 'content-type': 'application/json' },
          body: method === 'GET' ? undefined : '{}',
        },
        env,
      );
      if (PUBLIC_ROUTES.has(`${method} ${path}`)) expect(response.status, `${method} ${path}`).not.toBe(403);
      else expect(response.status, `${method} ${path}`).toBe(403);
    }
  });

  it('an unknown /api path is refused before it is looked up', async () => {
    expect((await request('/api/nope')).status).toBe(401);
    expect((await request('/api')).status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('describes every registered route and method, and is itself behind access', async () => {
    const doc = (await (
      await request('/api/openapi.json', { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { paths: Record<string, Record<string, unknown>> };
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    const registered = app.routes
      .filter((r) => !r.path.includes('*') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/\/+$/, '').replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThanOrEqual(12);
    expect([...new Set(registered)].filter((route) => !described.has(route))).toEqual([]);
    expect((await request('/api/openapi.json')).status).toBe(401);
  });
});

describe('with API_TOKEN', () => {
  it('takes the bearer token whatever the case of the scheme, and nothing in the URL', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await request('/api/runs', { headers: { authorization: `${scheme} ${TOKEN}` } })).status, scheme).toBe(
        200,
      );
    }
    expect(
      (await request('/api/models', { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status,
    ).toBe(401);
    expect((await request(`/api/runs?token=${TOKEN}`)).status).toBe(401);
    const refused = await request(`/api/runs/${RUN}/events`);
    expect(await refused.json()).toMatchObject({
      error: { code: 'unauthorized', message: expect.stringMatching(/Bearer <API_TOKEN>/) },
    });
  });

  it('shows health to anyone, but its reasons only with access', async () => {
    const open = healthSchema.parse(await (await request('/api/health')).json());
    for (const component of Object.values(open.components))
      expect(component.reason).toMatch(/^(ok|not ok; call with access for the reason)$/);
    const full = healthSchema.parse(
      await (await request('/api/health', { headers: { authorization: `Bearer ${TOKEN}` } })).json(),
    );
    expect(full.components.d1.reason).toMatch(/query ok/);
    expect(JSON.stringify(open)).not.toMatch(/127\.0\.0\.1|PROXY|http/);
  });

  it('opens a socket with the token as a subprotocol, answering the fixed name and never the token', async () => {
    const run = await createRun({ model: 'script-pause' });
    const refused = await request(`/api/runs/${run.id}/ws`, {
      headers: { upgrade: 'websocket', 'sec-websocket-protocol': `${WS_SUBPROTOCOL}, token.wrong-token-wrong-token` },
    });
    expect(refused.status).toBe(401);
    const response = await request(`/api/runs/${run.id}/ws`, {
      headers: { upgrade: 'websocket', 'sec-websocket-protocol': `${WS_SUBPROTOCOL}, token.${TOKEN}` },
    });
    expect(response.status).toBe(101);
    expect(response.headers.get('sec-websocket-protocol')).toBe(WS_SUBPROTOCOL);
    response.webSocket?.accept();
    response.webSocket?.close(1000, 'done');
  });

  it('takes the subprotocol token on a WebSocket upgrade only, never on a plain REST call', async () => {
    const headers = { 'sec-websocket-protocol': `${WS_SUBPROTOCOL}, token.${TOKEN}` };
    expect((await request('/api/runs', { headers })).status).toBe(401);
    expect(
      (
        await request('/api/runs', {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
    expect((await request('/api/runs', { headers: { ...headers, upgrade: 'h2c' } })).status).toBe(401);
    expect((await request('/api/runs', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('refuses a token too short to be safe, saying so', async () => {
    const response = await request(
      '/api/runs',
      { headers: { authorization: 'Bearer short' } },
      { ...env, API_TOKEN: 'short' },
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: { code: 'misconfigured', message: expect.stringMatching(/API_TOKEN: must be at least 16 characters/) },
    });
  });
});

describe('without API_TOKEN: this machine only', () => {
  const local = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
    request(path, { ...init, headers: { 'cf-connecting-ip': '127.0.0.1', ...headers } }, env);

  it('serves a loopback client with a loopback Host and says so', async () => {
    for (const host of ['127.0.0.1:8787', 'localhost:8787', '[::1]:8787']) {
      const response = await local('/api/runs', { host });
      expect(response.status, host).toBe(200);
      expect(response.headers.get('x-bandit-runner-auth')).toMatch(/this machine only/);
    }
  });

  it("refuses a remote client, a foreign Host (DNS rebinding) and another site's page, each saying what to set", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'cf-connecting-ip': '203.0.113.7' }, 'loopback_only'],
      // Through Cloudflare's edge (CF-Ray), a loopback CF-Connecting-IP is not believed: the edge sets it.
      [{ 'cf-ray': '8f1e2d3c4b5a6978-DFW', 'cf-connecting-ip': '127.0.0.1', host: '127.0.0.1:8787' }, 'loopback_only'],
      [{ host: 'evil.example:8787' }, 'host_not_loopback'],
      [{ host: '127.0.0.1.evil.example' }, 'host_not_loopback'],
      [{ host: '127.0.0.1:8787', origin: 'http://evil.example' }, 'cross_origin'],
      [{ host: '127.0.0.1:8787', origin: 'http://127.0.0.1:3000' }, 'cross_origin'],
    ];
    for (const [headers, code] of cases) {
      const response = await local('/api/runs', headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code, message: expect.stringMatching(/API_TOKEN/) } });
    }
    expect((await local('/api/runs', { host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' })).status).toBe(200);
  });

  it('refuses a write that is not application/json (a cross-site form needs no preflight for text/plain)', async () => {
    const form = await local(
      '/api/runs',
      { host: '127.0.0.1:8787', 'content-type': 'text/plain' },
      { method: 'POST', body: '{}' },
    );
    expect(form.status).toBe(403);
    expect(await form.json()).toMatchObject({ error: { code: 'json_required' } });
    const json = await local(
      '/api/runs',
      { host: '127.0.0.1:8787', 'content-type': 'application/json; charset=utf-8' },
      { method: 'POST', body: '{"model":"script-pause"}' },
    );
    expect(json.status).toBe(201);
  });

  it('refuses a socket opened from another site', async () => {
    const run = await createRun({ model: 'script-pause' });
    const response = await local(`/api/runs/${run.id}/ws`, {
      host: '127.0.0.1:8787',
      origin: 'http://evil.example',
      upgrade: 'websocket',
    });
    expect(response.status).toBe(403);
  });
});

describe('the proxy is reached over https unless it is on this machine', () => {
  it('refuses plain http to another machine, names the way out, and flags the opt-in in health', async () => {
    const remote = readSettings({ ...env, PROXY_URL: 'http://proxy.example.com:8788' });
    expect(remote).toMatchObject({
      ok: false,
      message: expect.stringMatching(/PROXY_URL: .*https:\/\/.*PROXY_ALLOW_HTTP=true/),
    });
    expect(readSettings({ ...env, PROXY_URL: 'https://proxy.example.com' }).ok).toBe(true);
    expect(readSettings({ ...env, PROXY_URL: 'http://127.0.0.1:8788' }).ok).toBe(true);
    const optedIn = { ...withToken, PROXY_URL: 'http://proxy.example.invalid:8788', PROXY_ALLOW_HTTP: 'true' };
    const health = healthSchema.parse(
      await (await request('/api/health', { headers: { authorization: `Bearer ${TOKEN}` } }, optedIn)).json(),
    );
    expect(health.components.worker).toMatchObject({ ok: true, warning: expect.stringMatching(/plain http/) });
  });
});
