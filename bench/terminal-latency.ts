// bench/terminal-latency: keystroke → echo through the whole relay, as a person at `attach` or the run
// page feels it: a run-socket client sends terminal_input of one character and times the terminal_output
// event that echoes it (WebSocket → the run's Durable Object → WebSocket → proxy → SSH PTY → the
// practice range, and back). The same keys through the proxy's relay alone and over SSH alone give
// the ceiling and the floor. The stack runs as `npm start` runs it. Prints figures; asserts nothing.
// Usage: node bench/terminal-latency.ts [--keys 300] [--clear-every 25]
//   --clear-every 50 lets a line hold words of 32+ letters, which the proxy tries as passwords.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type ssh2 from 'ssh2';
import type { RunEvent } from '../schema/protocol.ts';
import { serverMessageSchema, socketProtocols } from '../schema/protocol.ts';
import type { RunSummary } from '../schema/run.ts';
import { RelayClient } from '../test/support/relay-client.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import { connectClient } from './ssh-timing.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: { keys: { type: 'string', default: '300' }, 'clear-every': { type: 'string', default: '25' } },
});
const KEYS = Number(values.keys);
const CLEAR_EVERY = Number(values['clear-every']);
const WARM_UP = 20;
const SECRET = 'bench-terminal-secret-0123456789';
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Something keys can be typed into and whose output can be awaited. */
type Typist = { type(text: string): void; output(): string; waitFor(test: (output: string) => boolean): Promise<void> };

/** Output waited on by event, never by polling: each arrival wakes the waiters. */
class Screen {
  text = '';
  private waiters: (() => void)[] = [];

  add(bytes: Buffer): void {
    this.text += bytes.toString('utf8');
    for (const wake of this.waiters.splice(0)) wake();
  }

  async waitFor(test: (output: string) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!test(this.text)) {
      if (Date.now() > deadline) throw new Error(`waited 10 s for ${what}; output so far:\n${this.text.slice(-500)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 1000);
      });
    }
  }
}

/** Types WARM_UP + KEYS letters one at a time; the ms from each send to the output holding its echo. */
async function measure(t: Typist): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + KEYS; i++) {
    // Ctrl-U clears the line every 25 keys: it never wraps, and never holds a 32-letter word, which the
    // proxy would try as a password (a login per word, docs/protocol.md); 50 measured the same.
    if (i % CLEAR_EVERY === CLEAR_EVERY - 1) {
      const before = t.output().length;
      t.type('\x15');
      await t.waitFor((o) => o.length > before);
    }
    const key = LETTERS[i % LETTERS.length]!;
    const before = t.output().length;
    const started = performance.now();
    t.type(key);
    await t.waitFor((o) => o.slice(before).includes(key));
    if (i >= WARM_UP) times.push(performance.now() - started);
  }
  return times;
}

/** The whole stack: a human run's terminal taken over its run socket, the bytes read from its events. */
async function throughStack(url: string): Promise<number[]> {
  const created = await fetch(`${url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'human', startLevel: 0, endLevel: 0 }),
  });
  const run = (await created.json()) as RunSummary;
  const screen = new Screen();
  let holding = false;
  let paused = false;
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/runs/${run.id}/ws?since=0`, socketProtocols(null));
  const changed = new Screen();
  ws.addEventListener('message', (m) => {
    const parsed = serverMessageSchema.safeParse(JSON.parse(String(m.data)));
    if (!parsed.success) return;
    const msg = parsed.data;
    const events: RunEvent[] = msg.type === 'event' ? [msg.event] : msg.type === 'events' ? msg.events : [];
    for (const e of events) {
      if (e.type === 'terminal_output') screen.add(Buffer.from(e.data, 'base64'));
      if (e.type === 'user_action_required' && e.reason === 'human_turn') paused = true;
    }
    if (msg.type === 'snapshot' && msg.pendingAction?.reason === 'human_turn') paused = true;
    if (msg.type === 'terminal') holding = msg.open && msg.you;
    changed.add(Buffer.from(' '));
  });
  await new Promise((resolve) => ws.addEventListener('open', resolve));
  await changed.waitFor(() => paused, "the human run's first turn");
  ws.send(JSON.stringify({ type: 'user_action', action: 'takeover', cols: 200, rows: 50 }));
  await changed.waitFor(() => holding, 'the terminal');
  await screen.waitFor((o) => /bandit0@practice:~\$ $/.test(o), 'the prompt');
  const times = await measure({
    type: (data) => ws.send(JSON.stringify({ type: 'terminal_input', data })),
    output: () => screen.text,
    waitFor: (test) => screen.waitFor(test, 'an echo'),
  });
  ws.send(JSON.stringify({ type: 'user_action', action: 'stop' }));
  ws.close();
  return times;
}

/** The proxy's relay alone, driven as the Durable Object drives it. */
async function throughProxy(proxyPort: number): Promise<number[]> {
  const relay = new RelayClient(`http://127.0.0.1:${proxyPort}`, SECRET);
  await relay.openPracticeLevel0('run_benchterminallatency000');
  const times = await measure({
    type: (data) => relay.type(data),
    output: () => relay.output,
    waitFor: (test) => relay.until('an echo', (c) => test(c.output), 10_000),
  });
  relay.send({ type: 'close' });
  await relay.closed;
  return times;
}

/** SSH alone: an ssh2 shell with a PTY on the range, no WebSocket at all. */
async function overSsh(rangePort: number): Promise<number[]> {
  const client = await connectClient(rangePort);
  const stream = await new Promise<ssh2.ClientChannel>((resolve, reject) =>
    client.shell({ term: 'xterm-256color', cols: 200, rows: 50 }, (err, s) => (err ? reject(err) : resolve(s))),
  );
  const screen = new Screen();
  stream.on('data', (d: Buffer) => screen.add(d));
  await screen.waitFor((o) => /bandit0@practice:~\$ $/.test(o), 'the prompt');
  const times = await measure({
    type: (data) => stream.write(data),
    output: () => screen.text,
    waitFor: (test) => screen.waitFor(test, 'an echo'),
  });
  client.end();
  return times;
}

const line = (name: string, t: number[]) =>
  `  ${name.padEnd(46)} p50 ${percentile(t, 50).toFixed(2).padStart(6)} · p95 ${percentile(t, 95).toFixed(2).padStart(6)} · p99 ${percentile(t, 99).toFixed(2).padStart(6)} · max ${Math.max(
    ...t,
  )
    .toFixed(2)
    .padStart(7)} ms`;

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-bench-terminal-'));
const stack = await startStackProcess(stateDir, undefined, { PROXY_SECRET: SECRET });
try {
  const ssh = await overSsh(stack.ports.practice);
  const proxy = await throughProxy(stack.ports.proxy);
  const whole = await throughStack(stack.url);
  console.log(
    `keystroke → echo, ${KEYS} keys each after ${WARM_UP} to warm up, the line cleared every ${CLEAR_EVERY}, over loopback:`,
  );
  console.log(line('SSH alone (ssh2 PTY → practice range)', ssh));
  console.log(line("the proxy's relay alone (WebSocket → SSH)", proxy));
  console.log(line('the whole stack (run socket → Durable Object)', whole));
  const added = percentile(whole, 50) - percentile(proxy, 50);
  console.log(`  the Durable Object's hop adds ${added.toFixed(2)} ms at p50 over the proxy alone`);
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
