// Query strings go through the same funnel as bodies (worker/validate.ts): every route that takes a query,
// as the OpenAPI document lists them, refuses an unknown parameter and a bad value with the same 400 body.
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../schema/api.ts';
import { openApiDocument } from '../../worker/openapi.ts';
import { call, createRun, postJson } from './http.ts';

type Operation = { parameters?: { name: string; in: string }[] };

/** Every GET path that declares a query parameter, with the parameters it declares. */
function queryRoutes(): { path: string; names: string[] }[] {
  const paths = openApiDocument().paths as Record<string, { get?: Operation }>;
  return Object.entries(paths).flatMap(([path, item]) => {
    const names = (item.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    return names.length ? [{ path, names }] : [];
  });
}

/**
 * A value each route's schema refuses for one of its parameters, and the parameter the issue names; then
 * the other parameters the route needs, if any (`{id}` is the run's id).
 */
const BAD_VALUES: Record<string, [string, string, string?]> = {
  '/api/runs': ['limit', '0'],
  '/api/runs/{id}/events': ['since', '-1'],
  '/api/runs/{id}/ws': ['since', 'soon'],
  '/api/runs/{id}/artifacts': ['secrets', 'all'],
  '/api/runs/{id}/terminal.cast': ['secrets', 'all'],
  '/api/runs/{id}/report.html': ['secrets', 'all'],
  '/api/analytics/summary': ['from', 'yesterday'],
  '/api/analytics/levels': ['to', 'tomorrow'],
  '/api/analytics/models': ['from', '2026-13-45'],
  '/api/analytics/failures': ['limit', 'many'],
  '/api/analytics/slow': ['overMs', '-5'],
  '/api/analytics/series': ['bucket', 'week'],
  '/api/analytics/limits': ['from', 'yesterday'],
  '/api/board': ['target', 'moon'],
  '/api/compare': ['b', 'run_?', 'a={id}&'],
};

/** GET the path (a WebSocket upgrade for /ws, so the refusal is the query's and not the missing upgrade). */
function get(path: string): Promise<Response> {
  return call(path, path.includes('/ws?') ? { headers: { Upgrade: 'websocket' } } : undefined);
}

async function refusal(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return apiErrorSchema.parse(await response.json()).error;
}

describe('the query funnel', () => {
  it('finds every route that takes a query in the OpenAPI document, and has a bad value for each', () => {
    const found = queryRoutes().map((r) => r.path);
    expect(found.sort()).toEqual(Object.keys(BAD_VALUES).sort());
  });

  it('refuses an unknown parameter on every route with 400 invalid_query naming it', async () => {
    const run = await createRun({ model: 'baseline' });
    for (const { path } of queryRoutes()) {
      const url = `${path.replace('{id}', run.id)}?no_such_param=1`;
      const error = await refusal(await get(url));
      expect(error, url).toMatchObject({
        code: 'invalid_query',
        message: expect.stringMatching(/^the query is invalid: /),
      });
      expect(error.issues?.join(' '), url).toMatch(/no_such_param/);
    }
  });

  it('refuses a bad value on every route with 400 invalid_query naming the parameter', async () => {
    const run = await createRun({ model: 'baseline' });
    for (const { path, names } of queryRoutes()) {
      const [name, value, rest = ''] = BAD_VALUES[path]!;
      expect(names, path).toContain(name);
      const url = `${path.replace('{id}', run.id)}?${rest.replace('{id}', run.id)}${name}=${encodeURIComponent(value)}`;
      const error = await refusal(await get(url));
      expect(error.code, url).toBe('invalid_query');
      expect(error.issues, url).toEqual([expect.stringMatching(new RegExp(`^${name}: `))]);
    }
  });

  it('answers a bad query in the same shape and words as a bad body', async () => {
    const query = await refusal(await call('/api/runs?limit=0'));
    const body = await refusal(await postJson('/api/runs', { maxRetries: 0 }));
    expect(Object.keys(query).sort()).toEqual(Object.keys(body).sort());
    expect(query.message).toBe(`the query is invalid: ${query.issues?.join('; ')}`);
    expect(body.message).toBe(`the request body is invalid: ${body.issues?.join('; ')}`);
  });

  it('still takes a good query, and a socket with a good since', async () => {
    const run = await createRun({ model: 'baseline' });
    expect((await call(`/api/runs/${run.id}/events?since=0&limit=5`)).status).toBe(200);
    const socket = await call(`/api/runs/${run.id}/ws?since=0`, { headers: { Upgrade: 'websocket' } });
    expect(socket.status).toBe(101);
    socket.webSocket?.accept();
    socket.webSocket?.close();
  });
});
