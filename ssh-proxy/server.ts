// The proxy's HTTP surface (Hono on Node): GET /health, and behind the shared secret
// POST /v1/advance (the agent), POST /v1/break, GET /v1/models and the terminal relay's WebSocket.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody } from '../schema/api.ts';
import type { ModelInfo, ProxyHealth } from '../schema/protocol.ts';
import { MAX_PROXY_REQUEST_BYTES, PROTOCOL_VERSION } from '../schema/protocol.ts';
import { TERMINAL_RELAY_PATH } from '../schema/terminal.ts';
import { buildBanditGraph } from './agent/bandit-graph.ts';
import { bearerCheck } from './bearer-check.ts';
import { CallsInProgress } from './calls-in-progress.ts';
import { ModelRegistry } from './models/model-registry.ts';
import { callRoute } from './routes/advance.ts';
import { breakRoute } from './routes/break.ts';
import { RunTelemetry } from './telemetry/run-telemetry.ts';
import type { ProxySettings } from './settings.ts';
import { probeSsh } from './ssh/probe-ssh.ts';
import { SessionPool } from './ssh/session-pool.ts';
import { createTargets } from './targets/targets.ts';
import { TerminalRelay } from './terminal/terminal-relay.ts';

/** The proxy's routes and its session pool, without a listening socket (tests call `app.request`). */
export function createProxyApp(settings: ProxySettings) {
  const startedAt = Date.now();
  const pool = new SessionPool(settings.ssh);
  const models = new ModelRegistry(settings.providers, settings.llm);
  const targets = createTargets({ practice: settings.practice, bandit: settings.bandit });
  const secrets = [settings.secret, ...models.secrets()];
  const deps = {
    graph: buildBanditGraph(),
    models,
    pool,
    sliceMs: settings.sliceMs,
    callMaxMs: settings.callMaxMs,
    stepLimit: settings.stepLimit,
    liveMs: settings.liveMs,
    calls: new CallsInProgress(),
    secrets,
    telemetry: settings.otel ? new RunTelemetry(settings.otel.endpoint, settings.otel.serviceName) : null,
  };
  const authorized = bearerCheck(settings.secret);
  const relay = new TerminalRelay({
    secret: settings.secret,
    targets,
    connectTimeoutMs: settings.ssh.connectTimeoutMs,
  });

  const app = new Hono()
    // Only the worker calls the proxy, and a fetch from a worker carries no Origin: one that does
    // comes from a browser's page, which has no business here (a loopback port is reachable from any page).
    .use('*', async (c, next) => {
      if (c.req.header('origin') === undefined) return next();
      return c.json(
        errorBody(
          'cross_origin',
          'the proxy serves the worker only; requests from web pages (with an Origin header) are refused',
        ),
        403,
      );
    })
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
    // For a load balancer's health checks: answers while this process serves calls, touches nothing else
    // (the /health probe opens an SSH connection to the range, too much to repeat twice a second).
    .get('/ready', (c) => c.json({ ok: true }))
    .use('/v1/*', async (c, next) => {
      if (!authorized(c.req.header('authorization'))) {
        return c.json(
          errorBody('unauthorized', 'send Authorization: Bearer <PROXY_SECRET>, the secret the worker and proxy share'),
          401,
        );
      }
      return next();
    })
    .get('/v1/models', (c) => c.json({ models: models.list() satisfies ModelInfo[] }))
    .use(
      '/v1/advance',
      bodyLimit({
        maxSize: MAX_PROXY_REQUEST_BYTES,
        onError: (c) =>
          c.json(errorBody('body_too_large', `the request is over ${MAX_PROXY_REQUEST_BYTES} bytes`), 413),
      }),
    )
    .route('/v1/advance', callRoute(deps, targets))
    .route('/v1/break', breakRoute(deps.calls))
    .notFound((c) => c.json(errorBody('not_found', `no route for ${c.req.method} ${c.req.path}`), 404))
    .onError((err, c) => {
      console.error('ssh-proxy: unhandled error', err);
      return c.json(errorBody('internal', 'the proxy failed while handling this request; see its log'), 500);
    });
  return { app, pool, relay, calls: deps.calls, telemetry: deps.telemetry };
}

/** How long an idle connection from the worker stays open. */
const KEEP_ALIVE_MS = 120_000;

/** A running proxy: its port and how to stop it. */
export type RunningProxy = {
  port: number;
  activeSessions: () => number;
  activeRuns: () => number;
  /** Terminals a person holds through the relay now. */
  openTerminals: () => number;
  close: () => Promise<void>;
};

/** Listens on settings.host:settings.port (0 picks a free port). */
export function startProxy(settings: ProxySettings): Promise<RunningProxy> {
  const { app, pool, relay, calls, telemetry } = createProxyApp(settings);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: settings.host, port: settings.port }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        activeSessions: () => pool.size,
        activeRuns: () => calls.size,
        openTerminals: () => relay.size,
        close: () =>
          new Promise<void>((done) => {
            pool.closeAll();
            relay.closeAll();
            // The spans still buffered are sent before the proxy says it has stopped.
            server.close(async () => {
              await telemetry?.shutdown().catch(() => undefined);
              done();
            });
            // Streams still open (a run mid-slice) would hold close() forever.
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', reject);
    server.on('connection', (socket) => socket.setNoDelay(true));
    // The one WebSocket is the worker's terminal relay; any other upgrade is refused before it reaches a route.
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node leaves an upgraded socket without an error listener; a client's reset must not crash the proxy.
      socket.on('error', () => socket.destroy());
      if (TerminalRelay.wants(req)) return relay.upgrade(req, socket, head);
      const body = `the proxy takes WebSocket upgrades only at ${TERMINAL_RELAY_PATH}, from the worker\n`;
      socket.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
    // The worker keeps connections to the proxy open between calls. Node's default closes an idle one
    // after 5 s, and a call the worker sent on it just then failed with "Network connection lost"
    // (a proxy_retry, about one in ten runs with a hundred at once): keep them longer than the caller does.
    const http = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
    http.keepAliveTimeout = KEEP_ALIVE_MS;
    http.headersTimeout = KEEP_ALIVE_MS + 5_000;
  });
}
