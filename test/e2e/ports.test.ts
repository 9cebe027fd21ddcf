// Every port a stack started by `npm start` listens on, asked for a WebSocket upgrade the way another
// site's page would ask: none may answer 101, and no DevTools inspector may listen (issue 27, finding 1).
import { describe, expect, it } from 'vitest';
import { runSummarySchema } from '../../schema/run.ts';
import { ACCESS_MODES } from '../support/access-modes.ts';
import { listeningPorts } from '../support/listening-ports.ts';
import { stackForFile } from '../support/stack-process.ts';
import { askUpgrade, resetUpgrade, upgradeAnswer } from '../support/upgrade-probe.ts';

const PROXY_SECRET = 'e2e-port-fence-proxy-secret-9b3d';
/** Pages on another site, on another loopback port (what wrangler's own checks let through), and sandboxed. */
const ORIGINS = ['http://evil.example', 'http://127.0.0.1:1', 'http://localhost:3000', 'null'];
/** No subprotocol, wrangler's live-reload one, and a made-up token. */
const PROTOCOLS = [undefined, 'WRANGLER_PROXYWORKER_LIVE_RELOAD_PROTOCOL', 'token.not-the-token-0123456789'];
/** The inspector's paths, wrangler's internal ones, the app's and the run's socket (its id filled in). */
const PATHS = [
  '/',
  '/core:user:bandit-runner',
  '/json',
  '/json/list',
  '/json/version',
  '/cdn-cgi/live-reload',
  '/cdn-cgi/InspectorProxyWorker/websocket',
  '/api/health',
  '/v1/advance',
  '/api/runs/RUN/ws',
];

describe.each(ACCESS_MODES)('the ports of a stack with $name', (mode) => {
  // With a token, two proxies behind HAProxy (PROXIES=2): the balancer's port and the proxies behind it are
  // asked the same questions as every other port.
  const stack = stackForFile(`ports-${mode.token ? 'token' : 'loopback'}`, {
    ...mode.env,
    PROXY_SECRET,
    ...(mode.token ? { PROXIES: '2' } : {}),
  });
  const auth: Record<string, string> = mode.token ? { authorization: `Bearer ${mode.token}` } : {};

  it('lists the worker, proxy and range ports, all on loopback, and no inspector', async () => {
    const { ports, pid } = stack();
    const listening = listeningPorts(pid);
    console.log(
      `[ports] ${mode.name}: ${listening.length} listening: ${listening
        .map(
          (l) =>
            `${l.address}:${l.port} (${l.command
              .split(' ')
              .slice(0, 2)
              .map((w) => w.split('/').pop())
              .join(' ')})`,
        )
        .join(', ')}`,
    );
    const numbers = listening.map((l) => l.port);
    expect(numbers).toEqual(expect.arrayContaining([ports.worker, ports.proxy, ports.practice]));
    expect(listening.every((l) => l.address === '127.0.0.1' || l.address === '0:0:0:0:0:0:0:1')).toBe(true);
    // workerd opens its inspector only when given --inspector-addr; wrangler's proxy for it is a socket too.
    expect(listening.filter((l) => l.command.includes('--inspector-addr'))).toEqual([]);
    // And no port lists DevTools targets, as an inspector (workerd's or wrangler's proxy for it) would.
    for (const port of numbers) {
      const text = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(3_000) }).then(
        (r) => r.text(),
        (err: unknown) => String(err),
      );
      expect(text).not.toContain('webSocketDebuggerUrl');
    }
  });

  it('answers no cross-origin WebSocket upgrade on any of them', async () => {
    const { url, pid } = stack();
    const created = await fetch(`${url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ maxRetries: 1 }),
    });
    expect(created.status).toBe(201);
    const runId = runSummarySchema.parse(await created.json()).id;
    const ports = listeningPorts(pid).map((l) => l.port);
    const asks = ports.flatMap((port) =>
      PATHS.flatMap((path) =>
        ORIGINS.flatMap((origin) =>
          PROTOCOLS.map((protocol) => ({ port, path: path.replace('RUN', runId), origin, protocol })),
        ),
      ),
    );
    const answers = await Promise.all(asks.map(async (ask) => ({ ...ask, answer: await askUpgrade(ask) })));
    const opened = answers.filter((a) => / 101 /.test(`${a.answer} `));
    const tally = new Map<string, number>();
    for (const a of answers) tally.set(a.answer.slice(0, 40), (tally.get(a.answer.slice(0, 40)) ?? 0) + 1);
    console.log(
      `[ports] ${mode.name}: ${answers.length} cross-origin upgrades on ${ports.length} ports; answers: ${[...tally].map(([a, n]) => `${n} × ${a}`).join('; ')}`,
    );
    expect(opened).toEqual([]);
    expect(answers.length).toBe(ports.length * PATHS.length * ORIGINS.length * PROTOCOLS.length);
  });

  it('still opens the run socket for its own page, so the probe can see a 101', async () => {
    const { url, ports } = stack();
    const created = await fetch(`${url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ maxRetries: 1 }),
    });
    const runId = runSummarySchema.parse(await created.json()).id;
    const own = `http://127.0.0.1:${ports.worker}`;
    const answer = await askUpgrade({
      port: ports.worker,
      path: `/api/runs/${runId}/ws`,
      origin: own,
      protocol: mode.token ? `token.${mode.token}` : undefined,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 101 /);
  });

  it('has the proxy refuse any request that carries an Origin', async () => {
    const { ports } = stack();
    const proxy = `http://127.0.0.1:${ports.proxy}`;
    expect((await fetch(`${proxy}/health`)).status).toBe(200);
    const fromPage = await fetch(`${proxy}/health`, { headers: { origin: 'http://evil.example' } });
    expect(fromPage.status).toBe(403);
    expect(await fromPage.json()).toMatchObject({ error: { code: 'cross_origin' } });
    const models = await fetch(`${proxy}/v1/models`, {
      headers: { origin: `http://127.0.0.1:${ports.worker}`, authorization: `Bearer ${PROXY_SECRET}` },
    });
    expect(models.status).toBe(403);
  });

  it("sends the worker the caller's own address as CF-Connecting-IP, never one the caller wrote", async () => {
    const { url } = stack();
    // In loopback mode the worker refuses a non-loopback CF-Connecting-IP; a forged one must not reach it
    // (nor unlock anything). With a token, access does not read the header at all.
    const forged = await fetch(`${url}/api/runs`, { headers: { 'cf-connecting-ip': '9.9.9.9', ...auth } });
    expect(forged.status).toBe(200);
    const forgedLoopback = await fetch(`${url}/api/runs`, { headers: { 'cf-connecting-ip': '127.0.0.1' } });
    expect(forgedLoopback.status).toBe(mode.token ? 401 : 200);
  });

  it('survives upgrades reset mid-answer, and closes the connection after any answer but 101', async () => {
    const { url, ports } = stack();
    const own = `http://127.0.0.1:${ports.worker}`;
    const resets = [];
    for (let i = 0; i < 25; i++) {
      resets.push(resetUpgrade({ port: ports.worker, path: '/api/health', origin: 'http://evil.example' }));
      resets.push(resetUpgrade({ port: ports.worker, path: '/api/runs/RUN/ws', origin: own }));
      resets.push(resetUpgrade({ port: ports.proxy, path: '/v1/advance', origin: 'http://evil.example' }));
    }
    await Promise.all(resets);
    // Node leaves an upgraded socket without an error listener: before the fix one reset crashed the front.
    expect((await fetch(`${url}/api/health`, { headers: auth })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.proxy}/health`)).status).toBe(200);
    // A same-origin upgrade the worker refuses (no such run) is answered and closed, not left as a pipe.
    const refused = await upgradeAnswer({
      port: ports.worker,
      path: '/api/runs/run_zzzzzzzzzzzzzzzzzzzzzzzzzz/ws',
      origin: own,
      protocol: mode.token ? `token.${mode.token}` : undefined,
    });
    expect(refused.text).toMatch(/^HTTP\/1\.1 404 /);
    expect(refused.closed).toBe(true);
  });
});
