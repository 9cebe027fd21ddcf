// The proxy's HTTP surface (Hono on Node): health now; the agent's /v1/advance joins it later.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import type { ProxyHealth } from '../schema/protocol.ts';
import { PROTOCOL_VERSION } from '../schema/protocol.ts';
import type { ProxySettings } from './settings.ts';
import { probeSsh } from './ssh/probe-ssh.ts';

/** The proxy's routes, without a listening socket (tests call `app.request`). */
export function createProxyApp(settings: ProxySettings) {
  const startedAt = Date.now();
  return new Hono()
    .get('/health', async (c) => {
      const { host, port } = settings.practice;
      const practice = await probeSsh(host, port);
      const body: ProxyHealth = {
        ok: true,
        service: 'ssh-proxy',
        protocolVersion: PROTOCOL_VERSION,
        uptimeS: (Date.now() - startedAt) / 1000,
        practice: { ...practice, address: `${host}:${port}` },
      };
      return c.json(body);
    })
    .notFound((c) => c.json({ error: { code: 'not_found', message: `no route for ${c.req.method} ${c.req.path}` } }, 404))
    .onError((err, c) => {
      console.error('ssh-proxy: unhandled error', err);
      return c.json({ error: { code: 'internal', message: 'the proxy failed while handling this request; see its log' } }, 500);
    });
}

/** A running proxy: its port and how to stop it. */
export type RunningProxy = { port: number; close: () => Promise<void> };

/** Listens on settings.host:settings.port (0 picks a free port). */
export function startProxy(settings: ProxySettings): Promise<RunningProxy> {
  const app = createProxyApp(settings);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: settings.host, port: settings.port }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
    server.once('error', reject);
    server.on('connection', (socket) => socket.setNoDelay(true));
  });
}
