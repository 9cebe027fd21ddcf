// A scripted stand-in for the SSH proxy, for the worker's Durable Object tests. The run's model
// name picks the script ("script-pause", "script-flaky", …); any other model is forwarded to the
// real proxy. GET /__calls?runId= tells a test what the Durable Object sent.
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ProxyLine, ProxyRequest } from '../../schema/protocol.ts';
import type { FakeProxyCall } from './fake-proxy-call.ts';

type Script = (request: ProxyRequest, call: FakeProxyCall, res: ServerResponse, callIndex: number) => void;

/** Calls waiting for the test's word (POST /__release?runId=) before they say anything, by run. */
const held = new Map<string, () => void>();
const releaseOf = (runId: string) => new Promise<void>((resolve) => held.set(runId, resolve));

const ts = () => new Date().toISOString();
const event = (body: Record<string, unknown>): ProxyLine => ({ type: 'event', event: { ...body, ts: ts() } as never });
const checkpoint = (step: number, next: string, interrupt?: unknown): ProxyLine => ({
  type: 'checkpoint',
  checkpoint: {
    version: 1,
    step,
    next,
    state: { step },
    createdAt: ts(),
    ...(interrupt ? { interrupt } : {}),
  } as never,
});
const write = (res: ServerResponse, lines: ProxyLine[]) => {
  for (const line of lines) res.write(`${JSON.stringify(line)}\n`);
};
const PAUSE = {
  reason: 'max_retries',
  level: 0,
  retryCount: 3,
  maxRetries: 3,
  lastError: 'no password after 3 attempts',
  lessons: [{ text: 'look harder', source: 'model', level: 0 }],
};

const SCRIPTS: Record<string, Script> = {
  /** Plays a step, pauses at max retries; any answer then completes level 0 (stop is the worker's). */
  'script-pause': (request, _call, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    if (!request.checkpoint) {
      write(res, [
        event({ type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
        event({ type: 'command', level: 0, commandId: 'c1', command: 'ls' }),
        event({
          type: 'output',
          level: 0,
          commandId: 'c1',
          stdout: 'readme\n',
          stderr: '',
          exitCode: 0,
          durationMs: 2,
          truncated: false,
        }),
        event({
          type: 'llm_call',
          callId: 'llm_1',
          model: 'script-pause',
          stage: 'plan',
          level: 0,
          promptTokens: 100,
          completionTokens: 20,
          latencyMs: 5,
          costUsd: 0.001,
          errorClass: null,
        }),
        { type: 'trace', callId: 'llm_1', request: { messages: ['hi'] }, response: { ok: true } },
        event({ type: 'node', name: 'execute', level: 0, startedAt: ts(), durationMs: 2, status: 'ok', error: null }),
        checkpoint(1, 'pause', PAUSE),
        event({ type: 'user_action_required', ...PAUSE }),
        { type: 'end', outcome: 'interrupted', interrupt: PAUSE as never },
      ]);
    } else {
      write(res, [
        event({ type: 'password_found', level: 0, password: 'A'.repeat(32) }),
        event({ type: 'level_complete', level: 0, nextLevel: 1, commands: 1, durationMs: 10 }),
        checkpoint(request.checkpoint.step + 1, '__end__'),
        event({ type: 'run_complete', status: 'completed', levelsSolved: 1 }),
        { type: 'end', outcome: 'completed' },
      ]);
    }
    res.end();
  },
  /** The first call dies mid-step; the second, from the same checkpoint, completes. */
  'script-flaky': (request, _call, res, index) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    if (index === 0) {
      write(res, [
        event({ type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
        checkpoint(1, 'execute'),
        event({ type: 'command', level: 0, commandId: 'c1', command: 'ls' }),
      ]);
      setTimeout(() => res.destroy(), 20);
      return;
    }
    write(res, [
      event({ type: 'command', level: 0, commandId: 'c1', command: 'ls' }),
      event({
        type: 'output',
        level: 0,
        commandId: 'c1',
        stdout: 'readme\n',
        stderr: '',
        exitCode: 0,
        durationMs: 2,
        truncated: false,
      }),
      checkpoint((request.checkpoint?.step ?? 0) + 1, '__end__'),
      event({ type: 'run_complete', status: 'completed', levelsSolved: 0 }),
      { type: 'end', outcome: 'completed' },
    ]);
    res.end();
  },
  /** One step of 40 outputs of 30 KB each (about 1.2 MB), then a pause: more than one page of events. */
  'script-big': (_request, _call, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const outputs = Array.from({ length: 40 }, (_, i) =>
      event({
        type: 'output',
        level: 0,
        commandId: `c${i}`,
        stdout: `${i}`.padEnd(30_000, 'x'),
        stderr: '',
        exitCode: 0,
        durationMs: 1,
        truncated: false,
      }),
    );
    write(res, [
      ...outputs,
      checkpoint(1, 'pause', PAUSE),
      event({ type: 'user_action_required', ...PAUSE }),
      { type: 'end', outcome: 'interrupted', interrupt: PAUSE as never },
    ]);
    res.end();
  },
  /** Sends one line that never ends: 1.5 MB and no newline. */
  'script-huge-line': (_request, _call, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write(`{"type":"event","event":{"type":"thinking","level":0,"text":"${'x'.repeat(1_500_000)}`);
    res.end();
  },
  /**
   * Once released: two steps in one write (one chunk on the wire), then a third step and a pause in a
   * later one. A live socket should get the first two steps as one message and the third on its own.
   */
  'script-chunks': (request, _call, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.flushHeaders();
    const step = (n: number): string =>
      [event({ type: 'thinking', level: 0, text: `step ${n}` }), checkpoint(n, 'plan')]
        .map((l) => `${JSON.stringify(l)}\n`)
        .join('');
    void releaseOf(request.runId).then(() => {
      res.write(step(1) + step(2));
      setTimeout(() => {
        res.write(step(3));
        write(res, [
          event({ type: 'user_action_required', ...PAUSE }),
          { type: 'end', outcome: 'interrupted', interrupt: PAUSE as never },
        ]);
        res.end();
      }, 200);
    });
  },
  /** Always down. */
  'script-down': (_request, _call, res) => {
    res
      .writeHead(503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 'down', message: 'the proxy is restarting' } }));
  },
  /** Thinks out loud forever, one event every 30 ms, until the caller hangs up. */
  'script-slow': (_request, call, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    let step = 0;
    const timer = setInterval(() => {
      step += 1;
      write(res, [event({ type: 'thinking', level: 0, text: `thought ${step}` }), checkpoint(step, 'plan')]);
    }, 30);
    res.on('close', () => {
      clearInterval(timer);
      call.aborted = true;
    });
  },
  /** Yields after every step: the worker must call again at once. */
  'script-yield': (request, _call, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const step = (request.checkpoint?.step ?? 0) + 1;
    const done = step >= 3;
    write(res, [
      event({ type: 'thinking', level: 0, text: `slice ${step}` }),
      checkpoint(step, done ? '__end__' : 'plan'),
      ...(done
        ? [
            event({ type: 'run_complete', status: 'completed', levelsSolved: 0 }),
            { type: 'end', outcome: 'completed' } as ProxyLine,
          ]
        : [{ type: 'end', outcome: 'yielded' } as ProxyLine]),
    ]);
    res.end();
  },
  /**
   * Saves its place as a whole checkpoint, then as patches (fields set and unset, turns appended),
   * and yields; the next call must bring the whole state back, then the run completes.
   */
  'script-patches': (request, _call, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const patch = (base: number, changes: Record<string, unknown>): ProxyLine => ({
      type: 'checkpoint_patch',
      patch: {
        version: 1,
        step: base + 1,
        next: 'plan',
        createdAt: ts(),
        base,
        set: {},
        unset: [],
        append: {},
        ...changes,
      },
    });
    if (!request.checkpoint) {
      write(res, [
        event({ type: 'thinking', level: 0, text: 'whole' }),
        {
          type: 'checkpoint',
          checkpoint: {
            version: 1,
            step: 1,
            next: 'plan',
            createdAt: ts(),
            state: { history: [{ turn: 'a' }], note: 'first', gone: 1 },
          },
        },
        event({ type: 'thinking', level: 0, text: 'patch 1' }),
        patch(1, { set: { note: 'second' }, unset: ['gone'], append: { history: [{ turn: 'b' }] } }),
        event({ type: 'thinking', level: 0, text: 'patch 2' }),
        patch(2, { append: { history: [{ turn: 'c' }, { turn: 'd' }] } }),
        { type: 'end', outcome: 'yielded' },
      ]);
    } else {
      write(res, [
        checkpoint(4, '__end__'),
        event({ type: 'run_complete', status: 'completed', levelsSolved: 0 }),
        { type: 'end', outcome: 'completed' },
      ]);
    }
    res.end();
  },
};

export type FakeProxy = { url: string; close: () => Promise<void> };

/** Scripted runs answer here; the rest goes to `realProxyUrl`. */
export async function startFakeProxy(realProxyUrl: string, moreModelsFrom: string[] = []): Promise<FakeProxy> {
  const calls: FakeProxyCall[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/__calls') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(calls.filter((c) => c.runId === url.searchParams.get('runId'))));
      return;
    }
    if (url.pathname === '/v1/models') return listModels([realProxyUrl, ...moreModelsFrom], req, res);
    if (url.pathname === '/__release') {
      const release = held.get(url.searchParams.get('runId') ?? '');
      release?.();
      res.writeHead(release ? 200 : 404).end();
      return;
    }
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const request =
        req.method === 'POST' && url.pathname === '/v1/advance' ? (JSON.parse(body) as ProxyRequest) : null;
      const script = request ? SCRIPTS[request.config.model] : undefined;
      if (!request || !script) return forward(realProxyUrl, req, body, res);
      const call: FakeProxyCall = {
        runId: request.runId,
        step: request.checkpoint?.step ?? null,
        state: request.checkpoint?.state ?? null,
        patches: request.checkpointPatches ?? false,
        resume: request.resume ?? null,
        aborted: false,
      };
      const index = calls.filter((c) => c.runId === request.runId).length;
      calls.push(call);
      script(request, call, res, index);
    });
  });
  // The terminal relay (a WebSocket) goes to the real proxy byte for byte: the upgrade request, then both ways.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const real = new URL(realProxyUrl);
    const upstream = connect(Number(real.port), real.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The real proxies' models plus the scripts, so the worker lets runs start on a script. */
function listModels(proxies: string[], req: IncomingMessage, res: ServerResponse): void {
  const headers = { authorization: req.headers.authorization ?? '' };
  Promise.all(
    proxies.map((url) =>
      fetch(`${url}/v1/models`, { headers }).then(async (r) => ({ ok: r.ok, status: r.status, body: await r.text() })),
    ),
  )
    .then((answers) => {
      const failed = answers.find((a) => !a.ok);
      if (failed) return res.writeHead(failed.status, { 'content-type': 'application/json' }).end(failed.body);
      const listed = answers.flatMap((a) => (JSON.parse(a.body) as { models: { id: string }[] }).models);
      const models = listed.filter((m, i) => listed.findIndex((n) => n.id === m.id) === i);
      const scripts = Object.keys(SCRIPTS).map((id) => ({ id, provider: 'openai', available: true }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ models: [...models, ...scripts] }));
    })
    .catch(() => res.writeHead(502).end());
}

function forward(target: string, req: IncomingMessage, body: string, res: ServerResponse): void {
  const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  res.on('close', () => upstream.destroy());
  upstream.end(body);
}
