// A stand-in for the SSH proxy that plays one long run in a single advance: levels 0–32, attempts of ten
// steps that fail and retry, each step a model call (with its request traced, so D1 holds it), thinking, a
// command, its output and the node, then the level's password. The worker stores it as it stores any run,
// step by step with its checkpoint, so the bench measures a log the worker itself wrote.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyLine } from '../schema/protocol.ts';
import { PROTOCOL_VERSION } from '../schema/protocol.ts';

export type LongRunProxy = {
  url: string;
  /** How many events the next run's advance writes (about: a step is five). */
  size: number;
  /** The callId of the last model call the last advance wrote. */
  lastCallId: string;
  /** Advances that went on from a checkpoint: the worker called again after a failure. */
  calls: number;
  close(): Promise<void>;
};

const LAST_LEVEL = 32;
const ADDRESS = '127.0.0.1:2220';

/** The lines of one advance that writes about `size` events, then completes the run. */
function* longRun(size: number, lastCall: (callId: string) => void): Generator<ProxyLine> {
  const t0 = Date.now() - size * 40;
  let clock = 0;
  let events = 0;
  let checkpoints = 0;
  const ts = () => new Date(t0 + ++clock * 40).toISOString();
  const event = (body: Record<string, unknown>): ProxyLine => {
    events += 1;
    return { type: 'event', event: { ...body, ts: ts() } as never };
  };
  const checkpoint = (): ProxyLine => ({
    type: 'checkpoint',
    checkpoint: { version: 1, step: ++checkpoints, next: 'plan', state: { step: checkpoints }, createdAt: ts() },
  });
  const perLevel = Math.max(10, Math.ceil(size / (LAST_LEVEL + 1) / 5.3));
  let n = 0;
  for (let level = 0; level <= LAST_LEVEL && events < size; level++) {
    let attempt = 1;
    yield event({ type: 'level_started', level, attempt, retryCount: 0, address: ADDRESS });
    const turns: { role: string; content: string }[] = [];
    for (let step = 1; step <= perLevel && events < size; step++) {
      n += 1;
      const callId = `call_${n}`;
      const commandId = `cmd_${n}`;
      lastCall(callId);
      turns.push({ role: 'user', content: `Step ${n}: what next on bandit${level}?` });
      yield event({
        type: 'llm_call',
        callId,
        model: 'baseline',
        stage: 'plan',
        level,
        promptTokens: 900 + turns.length * 40,
        completionTokens: 60,
        latencyMs: 20,
        costUsd: 0.0004,
        errorClass: null,
      });
      yield {
        type: 'trace',
        callId,
        request: { model: 'baseline', messages: [{ role: 'system', content: 'You play bandit.' }, ...turns] },
        response: { content: `ls -la ~ && cat readme-${n}` },
      };
      yield event({ type: 'thinking', level, text: `Step ${n}: list bandit${level}'s home and read what it holds.` });
      const startedAt = ts();
      yield event({ type: 'command', level, commandId, command: `ls -la ~ && cat readme-${n}` });
      const lines = Array.from({ length: 1 + (n % 6) }, (_, i) => `-rw-r----- 1 bandit${level + 1} file-${n}-${i}`);
      yield event({
        type: 'output',
        level,
        commandId,
        stdout: `${lines.join('\n')}\n`,
        stderr: '',
        exitCode: 0,
        durationMs: 4,
        truncated: false,
      });
      yield event({ type: 'node', name: 'execute', level, startedAt, durationMs: 30, status: 'ok', error: null });
      yield checkpoint();
      if (step % 10 === 0 && step < perLevel) {
        const lessons = [{ text: `bandit${level}: the password is not in readme`, source: 'model', level }];
        yield event({
          type: 'attempt_failed',
          level,
          attempt,
          retryCount: attempt,
          maxRetries: 10,
          reason: 'no_progress',
          lessons,
        });
        attempt += 1;
        turns.length = 0;
        yield event({ type: 'level_started', level, attempt, retryCount: attempt - 1, address: ADDRESS });
        yield checkpoint();
      }
    }
    yield event({ type: 'password_found', level, password: `${String(level).padStart(2, '0')}${'x'.repeat(30)}` });
    yield event({ type: 'level_complete', level, nextLevel: level + 1, commands: perLevel, durationMs: 1000 });
    yield checkpoint();
  }
  yield event({ type: 'run_complete', status: 'completed', levelsSolved: LAST_LEVEL + 1 });
  yield checkpoint();
  yield { type: 'end', outcome: 'completed' };
}

/** Starts the stand-in on a free loopback port. */
export async function startLongRunProxy(): Promise<LongRunProxy> {
  const proxy = { size: 1_000, calls: 0 } as LongRunProxy;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const json = (code: number, body: unknown) =>
      res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/health')
      return json(200, {
        ok: true,
        service: 'ssh-proxy',
        protocolVersion: PROTOCOL_VERSION,
        uptimeS: 1,
        practice: { ok: true, reason: 'the bench stands in for it', address: ADDRESS },
      });
    if (path === '/v1/models')
      return json(200, { models: [{ id: 'baseline', provider: 'baseline', available: true }] });
    if (path !== '/v1/advance') return json(404, { error: { code: 'not_found', message: `no ${path} here` } });
    let body = '';
    req.on('data', (data: Buffer) => (body += data.toString()));
    req.on('end', () => {
      // A call the worker makes again (after a failure) goes on after the step its checkpoint names, as the proxy does.
      const after = (JSON.parse(body) as { checkpoint: { step: number } | null }).checkpoint?.step ?? 0;
      if (after > 0) proxy.calls += 1;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // Written in chunks of 200 lines, so the worker reads the stream as it does a busy proxy's.
      let chunk = '';
      let lines = 0;
      let step = 0;
      for (const line of longRun(proxy.size, (id) => (proxy.lastCallId = id))) {
        if (step < after) {
          if (line.type === 'checkpoint') step += 1;
          continue;
        }
        chunk += `${JSON.stringify(line)}\n`;
        if (++lines % 200 === 0) {
          res.write(chunk);
          chunk = '';
        }
      }
      res.end(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
